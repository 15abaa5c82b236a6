import {
  type AttributeValue,
  DescribeTableCommand,
  type DynamoDBClient,
  GetItemCommand,
} from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';

/**
 * What AWS bills a DynamoDB write, in write request units, worked out from the items either side
 * of it. DynamoDB Local's `ConsumedCapacity` cannot stand in for the bill: it sizes a transaction
 * on its items' total (a five-item transaction of small items is reported at 4 units; AWS bills 10),
 * reports nothing for a `ConditionCheck`, and doubles index writes inside a transaction.
 *
 * The rules, as AWS documents them and as captured against DynamoDB itself:
 * - a write is billed per item on the larger of its before and after images, one unit per KB
 *   started (a delete on the item it removes); twice that inside `TransactWriteItems`, where a
 *   `ConditionCheck` is billed the same on the item it reads;
 * - an index is billed on its own entry (the projected attributes and the keys), never doubled by
 *   a transaction: a new or removed entry one unit per KB, an entry moved to another key both its
 *   removal and its insert, an entry whose projected attributes changed the larger image, an
 *   unchanged entry nothing.
 */

export type Item = Record<string, AttributeValue>;

interface IndexShape {
  name: string;
  keys: string[];
  /** undefined: every attribute (`ALL`) */
  projected?: Set<string>;
}

export interface TableShape {
  keys: string[];
  indexes: IndexShape[];
}

export interface WriteBill {
  table: number;
  indexes: Record<string, number>;
}

const ATTRIBUTE_TYPES = new Set(['S', 'N', 'B', 'BOOL', 'NULL', 'M', 'L', 'SS', 'NS', 'BS']);

/**
 * An item as a request carries it: the document client's plain values are marshalled only after the
 * bench's middleware has seen them, so either form arrives here.
 */
export function asItem(value: Record<string, unknown>): Item {
  const marshalled = Object.values(value).every((attribute) => {
    const types = attribute && typeof attribute === 'object' ? Object.keys(attribute) : [];
    return types.length === 1 && ATTRIBUTE_TYPES.has(types[0]!);
  });
  return marshalled
    ? (value as Item)
    : marshall(value, { removeUndefinedValues: true, convertClassInstanceToMap: true });
}

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** A number's stored size: about one byte per two significant digits, plus one. */
function numberSize(text: string): number {
  const digits = text.replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

function valueSize(value: AttributeValue): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return value.B.byteLength;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS) return value.SS.reduce((sum, s) => sum + utf8(s), 0);
  if (value.NS) return value.NS.reduce((sum, n) => sum + numberSize(n), 0);
  if (value.BS) return value.BS.reduce((sum, b) => sum + b.byteLength, 0);
  if (value.L) return 3 + value.L.reduce((sum, element) => sum + 1 + valueSize(element), 0);
  if (value.M) return 3 + Object.entries(value.M).reduce((sum, [name, v]) => sum + utf8(name) + 1 + valueSize(v), 0);
  return 0;
}

export function itemSize(item: Item): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + valueSize(value), 0);
}

const unitsOf = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));

function indexEntry(item: Item | undefined, table: TableShape, index: IndexShape): Item | undefined {
  if (!item || index.keys.some((key) => item[key] === undefined)) return undefined;
  if (!index.projected) return item;
  const kept = new Set([...table.keys, ...index.keys, ...index.projected]);
  return Object.fromEntries(Object.entries(item).filter(([name]) => kept.has(name)));
}

const same = (a: unknown, b: unknown) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
function sorted(value: unknown): unknown {
  if (Array.isArray(value) || value instanceof Uint8Array) return value;
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, sorted(v)]),
    );
  return value;
}

function indexUnits(before: Item | undefined, after: Item | undefined, table: TableShape, index: IndexShape): number {
  const old = indexEntry(before, table, index);
  const now = indexEntry(after, table, index);
  if (!old && !now) return 0;
  if (!old) return unitsOf(itemSize(now!));
  if (!now) return unitsOf(itemSize(old));
  const keyOf = (entry: Item) => index.keys.map((key) => JSON.stringify(entry[key]));
  if (!same(keyOf(old), keyOf(now))) return unitsOf(itemSize(old)) + unitsOf(itemSize(now));
  if (same(old, now)) return 0;
  return Math.max(unitsOf(itemSize(old)), unitsOf(itemSize(now)));
}

/** One write (a put, an update or a delete) of one item, `transactional` inside `TransactWriteItems`. */
export function billWrite(
  table: TableShape,
  before: Item | undefined,
  after: Item | undefined,
  transactional: boolean,
): WriteBill {
  const larger = Math.max(before ? itemSize(before) : 0, after ? itemSize(after) : 0);
  const indexes: Record<string, number> = {};
  for (const index of table.indexes) {
    const units = indexUnits(before, after, table, index);
    if (units > 0) indexes[index.name] = units;
  }
  return { table: unitsOf(larger) * (transactional ? 2 : 1), indexes };
}

/** A transaction's `ConditionCheck`: billed as a transactional write of the item it reads, writing nothing. */
export function billConditionCheck(item: Item | undefined): WriteBill {
  return { table: unitsOf(item ? itemSize(item) : 0) * 2, indexes: {} };
}

/** Reads table shapes and item images through a client the bench does not count. */
export class ImageReader {
  private readonly shapes = new Map<string, Promise<TableShape>>();

  constructor(private readonly client: DynamoDBClient) {}

  shape(tableName: string): Promise<TableShape> {
    let shape = this.shapes.get(tableName);
    if (!shape) {
      shape = this.client.send(new DescribeTableCommand({ TableName: tableName })).then(({ Table }) => ({
        keys: (Table?.KeySchema ?? []).map((key) => key.AttributeName!),
        indexes: (Table?.GlobalSecondaryIndexes ?? []).map((index) => ({
          name: index.IndexName!,
          keys: (index.KeySchema ?? []).map((key) => key.AttributeName!),
          projected:
            index.Projection?.ProjectionType === 'ALL' ? undefined : new Set(index.Projection?.NonKeyAttributes ?? []),
        })),
      }));
      this.shapes.set(tableName, shape);
    }
    return shape;
  }

  async image(tableName: string, key: Item): Promise<Item | undefined> {
    const { Item: item } = await this.client.send(
      new GetItemCommand({ TableName: tableName, Key: key, ConsistentRead: true }),
    );
    return item;
  }
}
