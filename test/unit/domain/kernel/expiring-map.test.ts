import { describe, expect, it } from 'vitest';
import { ExpiringMap } from '../../../../lambdas/domain/kernel/expiring-map.js';

describe('ExpiringMap', () => {
  it('gives a value until its time, and nothing from then on', () => {
    const map = new ExpiringMap<string, number>();
    map.set('a', 1, 1_000);
    expect(map.get('a', 999)).toBe(1);
    expect(map.get('a', 1_000)).toBeUndefined();
    expect(map.get('a', 0)).toBeUndefined();
  });

  it('holds at most its bound: the oldest entry makes room, a rewritten one does not evict', () => {
    const map = new ExpiringMap<string, number>(2);
    map.set('a', 1, 10);
    map.set('b', 2, 10);
    map.set('b', 3, 10);
    expect(map.get('a', 0)).toBe(1);
    map.set('c', 4, 10);
    expect(map.get('a', 0)).toBeUndefined();
    expect([map.get('b', 0), map.get('c', 0)]).toEqual([3, 4]);
  });

  it('forgets on delete', () => {
    const map = new ExpiringMap<string, boolean>();
    map.set('a', true, 10);
    map.delete('a');
    expect(map.get('a', 0)).toBeUndefined();
  });
});
