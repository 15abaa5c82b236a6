import { describe, expect, it } from 'vitest';
import {
  asItem,
  billConditionCheck,
  billWrite,
  type Item,
  itemSize,
  type TableShape,
} from '../../../bench/dynamodb-billing.js';

const table: TableShape = {
  keys: ['pk', 'sk'],
  indexes: [
    { name: 'byStatus', keys: ['status_pk', 'status_sk'], projected: new Set(['status']) },
    { name: 'everything', keys: ['all_pk'] },
  ],
};

/** An item of exactly `bytes` bytes: its keys plus one padding attribute. */
function itemOf(bytes: number, extra: Item = {}): Item {
  const item: Item = { pk: { S: 'p' }, sk: { S: 's' }, ...extra };
  const padding = bytes - itemSize(item) - 'pad'.length;
  return { ...item, pad: { S: 'x'.repeat(padding) } };
}

describe('the size DynamoDB bills an item at', () => {
  it('counts attribute names and values, numbers by their significant digits', () => {
    expect(itemSize({ pk: { S: 'abc' }, n: { N: '123' } })).toBe(2 + 3 + 1 + 3);
    expect(itemSize({ n: { N: '1000' } })).toBe(1 + 2);
    expect(itemSize({ b: { BOOL: true }, z: { NULL: true } })).toBe(4);
  });

  it('adds three bytes for a map or list and one for each element', () => {
    expect(itemSize({ m: { M: { a: { S: 'xy' } } } })).toBe(1 + 3 + 1 + 1 + 2);
    expect(itemSize({ l: { L: [{ S: 'xy' }, { S: 'z' }] } })).toBe(1 + 3 + 1 + 2 + 1 + 1);
  });

  it('reads the document client’s plain values as the attributes they marshal to', () => {
    expect(asItem({ pk: 'a', n: 5 })).toEqual({ pk: { S: 'a' }, n: { N: '5' } });
    expect(asItem({ pk: { S: 'a' } })).toEqual({ pk: { S: 'a' } });
  });
});

describe('a write as AWS bills it', () => {
  it('bills one unit per KB started, twice inside a transaction (three 500-byte items: 6 units)', () => {
    const items = [1, 2, 3].map(() => itemOf(500));
    const bills = items.map((item) => billWrite(table, undefined, item, true));
    expect(bills.reduce((sum, bill) => sum + bill.table, 0)).toBe(6);
    expect(billWrite(table, undefined, itemOf(1500), false).table).toBe(2);
    expect(billWrite(table, undefined, itemOf(1500), true).table).toBe(4);
  });

  it('bills an update on the larger of the item before and after it', () => {
    expect(billWrite(table, itemOf(2500), itemOf(300), false).table).toBe(3);
    expect(billWrite(table, itemOf(300), itemOf(2500), false).table).toBe(3);
    expect(billWrite(table, itemOf(300), undefined, false).table).toBe(1);
  });

  it('bills an index on its own entry, never doubled by a transaction', () => {
    const listed = { status_pk: { S: 'org' }, status_sk: { S: 'queued' }, status: { S: 'queued' } };
    const before = itemOf(3000, listed);
    const added = billWrite(table, undefined, before, true);
    expect(added.table).toBe(6);
    expect(added.indexes).toEqual({ byStatus: 1 });

    const moved = { ...before, status_sk: { S: 'succeeded' }, status: { S: 'succeeded' } };
    expect(billWrite(table, before, moved, true).indexes).toEqual({ byStatus: 2 });

    const unprojectedChange = { ...before, pad: { S: 'y'.repeat(2900) } };
    expect(billWrite(table, before, unprojectedChange, true).indexes).toEqual({});

    const projectedChange = { ...before, status: { S: 'processing' } };
    expect(billWrite(table, before, projectedChange, false).indexes).toEqual({ byStatus: 1 });

    const { status_pk: _removed, ...unlisted } = before;
    expect(billWrite(table, before, unlisted, true).indexes).toEqual({ byStatus: 1 });
  });

  it('bills an index that projects everything at the whole item', () => {
    const whole = itemOf(2100, { all_pk: { S: 'a' } });
    expect(billWrite(table, undefined, whole, false).indexes).toEqual({ everything: 3 });
  });

  it('bills a ConditionCheck as a transactional write of the item it reads', () => {
    expect(billConditionCheck(itemOf(200)).table).toBe(2);
    expect(billConditionCheck(itemOf(1500)).table).toBe(4);
    expect(billConditionCheck(undefined).table).toBe(2);
  });
});
