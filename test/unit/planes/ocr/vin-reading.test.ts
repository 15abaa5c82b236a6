import { describe, expect, it } from 'vitest';
import { vinOf } from '../../../../lambdas/planes/ocr/vin-reading.js';
import { hasValidCheckDigit } from '../../../../lambdas/sandbox/vin.js';

// How the reference plane turns what the engine read into a VIN (docs/internals/inference-plane.md, "The
// reference plane"): I, O, Q never stand in a VIN, and the North American check digit chooses
// between readings where it applies.

const NORTH_AMERICAN = '1HGCM82633A004352';

describe('vinOf', () => {
  it('keeps a 17-character reading whose check digit holds', () => {
    expect(hasValidCheckDigit(NORTH_AMERICAN)).toBe(true);
    expect(vinOf(NORTH_AMERICAN)).toBe(NORTH_AMERICAN);
  });

  it('reads I, O and Q as 1, 0 and 0', () => {
    expect(vinOf('IHGCM82633AOO4352')).toBe(NORTH_AMERICAN);
    expect(vinOf('1HGCM82633AQ04352')).toBe(NORTH_AMERICAN);
  });

  it('lets the check digit pick the one look-alike swap that makes it hold', () => {
    expect(vinOf('1HGCM8Z633A004352')).toBe(NORTH_AMERICAN);
  });

  it('drops the twin of a thin glyph read twice when that makes the check digit hold', () => {
    expect(vinOf('1IHGCM82633A004352')).toBe(NORTH_AMERICAN);
  });

  it('leaves a reading alone where the check digit does not apply (a WMI outside North America)', () => {
    expect(vinOf('WVWZZZ1JZXW000001')).toBe('WVWZZZ1JZXW000001');
  });

  it('reports no VIN for a run of another length', () => {
    expect(vinOf('1HGCM82633A00435')).toBeNull();
    expect(vinOf('1HGCM82633A00435211')).toBeNull();
  });
});
