import * as z from 'zod/mini';
import { booleanParam } from './fields.js';

export const VinReadParams = z.strictObject({
  validate_checksum: booleanParam(
    'Verify the ISO 3779 check digit (position 9); `checksum_valid` is null when false',
    true,
  ),
  decode: booleanParam('Decode manufacturer, model year and plant from the VIN; `decoded` is null when false', true),
});
export type VinReadParams = z.output<typeof VinReadParams>;
