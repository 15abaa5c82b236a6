import { describe, expect, it } from 'vitest';
import { loadOnce } from '../../../../lambdas/domain/kernel/load-once.js';

describe('loadOnce', () => {
  it('runs each key’s loader once, shares it between concurrent and later callers, and never runs the others', async () => {
    const runs: string[] = [];
    const load = loadOnce({
      a: async () => {
        runs.push('a');
        return { name: 'a' };
      },
      b: async () => {
        runs.push('b');
        return { name: 'b' };
      },
    });
    const [first, second] = await Promise.all([load('a'), load('a')]);
    expect(first).toBe(second);
    expect(await load('a')).toBe(first);
    expect(runs).toEqual(['a']);
  });
});
