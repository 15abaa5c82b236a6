import { describe, expect, it } from 'vitest';
import { counted } from '../../../dashboard/src/counted.js';

describe('counted', () => {
  it('puts the noun in the number the count takes: one shape, two shapes, no shapes', () => {
    expect([0, 1, 2].map((count) => counted(count, 'shape'))).toEqual(['0 shapes', '1 shape', '2 shapes']);
    expect(counted(-1, 'credit')).toBe('-1 credit');
  });

  it('groups thousands and takes an irregular plural when given one', () => {
    expect(counted(1234, 'byte')).toBe('1,234 bytes');
    expect(counted(2, 'analysis', 'analyses')).toBe('2 analyses');
  });
});
