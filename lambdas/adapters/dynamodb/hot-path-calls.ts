import type { DynamoDBClient, TransactWriteItem } from '@aws-sdk/client-dynamodb';
import type { GetCommandInput, TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { marshallOptions } from '@aws-sdk/util-dynamodb';
import { dynamodbSdk, dynamodbUtil } from '../aws-sdk.js';

const { GetItemCommand, TransactWriteItemsCommand } = dynamodbSdk;
const { marshall, unmarshall } = dynamodbUtil;

/** A transaction item as the document client takes it: plain values, not attribute values. */
export type DocumentTransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** As the document client is configured (`table.ts`): an absent optional field is no attribute. */
const MARSHALL: marshallOptions = { removeUndefinedValues: true };

type Values = Record<string, unknown> | undefined;

function attributeValues<T extends { Item?: Values; Key?: Values; ExpressionAttributeValues?: Values }>(part: T) {
  const { Item, Key, ExpressionAttributeValues, ...rest } = part;
  return {
    ...rest,
    ...(Item ? { Item: marshall(Item, MARSHALL) } : {}),
    ...(Key ? { Key: marshall(Key, MARSHALL) } : {}),
    ...(ExpressionAttributeValues ? { ExpressionAttributeValues: marshall(ExpressionAttributeValues, MARSHALL) } : {}),
  };
}

function marshalTransactItem(item: DocumentTransactItem): TransactWriteItem {
  if (item.Put) return { Put: attributeValues(item.Put) } as TransactWriteItem;
  if (item.Update) return { Update: attributeValues(item.Update) } as TransactWriteItem;
  if (item.Delete) return { Delete: attributeValues(item.Delete) } as TransactWriteItem;
  return { ConditionCheck: attributeValues(item.ConditionCheck!) } as TransactWriteItem;
}

/**
 * The DynamoDB calls every job makes (its transactions and its reads by key), sent on a client that
 * caches its middleware stack per command class. The document client resolves two middleware stacks
 * on every call and refuses a caching client: a read through it took about twice the SDK CPU of the
 * same read sent this way (`npm run bench:sdk`; `docs/internals/benchmarks.md`, "SDK calls off the document
 * client"). These take the document client's input and marshal it here, with the same options.
 */
export class HotPathCalls {
  constructor(private readonly client: DynamoDBClient) {}

  async getItem(input: GetCommandInput): Promise<Record<string, unknown> | undefined> {
    const out = await this.client.send(new GetItemCommand({ ...input, Key: marshall(input.Key, MARSHALL) }));
    return out.Item ? unmarshall(out.Item) : undefined;
  }

  async transactWrite(items: readonly DocumentTransactItem[]): Promise<void> {
    await this.client.send(new TransactWriteItemsCommand({ TransactItems: items.map(marshalTransactItem) }));
  }
}
