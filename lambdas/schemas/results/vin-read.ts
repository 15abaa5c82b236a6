import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { BoundingBox, Confidence, NeedsReview } from './common.js';
import { Vin } from './vocabulary.js';

const DecodedVin = describe(
  z.object({
    wmi: describe(z.string().check(z.length(3)), 'World manufacturer identifier (positions 1-3)'),
    manufacturer: describe(z.nullable(z.string()), 'Manufacturer the WMI is assigned to; null when unknown'),
    country: describe(z.nullable(z.string()), 'Country of manufacture, ISO 3166-1 alpha-2; null when unknown'),
    model_year: describe(z.nullable(z.int()), 'Model year from position 10 (the most recent matching 30-year cycle)'),
    plant_code: describe(z.string().check(z.length(1)), 'Assembly plant code (position 11)'),
    serial_number: describe(z.string().check(z.length(6)), 'Production sequence number (positions 12-17)'),
  }),
  'Fields decoded from the VIN',
);

const ReadVin = z.object({
  text: Vin,
  confidence: Confidence,
  bbox: BoundingBox,
  location: describe(
    z.enum(['windshield', 'door_jamb', 'registration_document', 'engine_bay', 'chassis', 'unknown']),
    'Where on the vehicle (or document) the VIN was found',
  ),
  checksum_valid: describe(
    z.nullable(z.boolean()),
    'Whether the check digit (position 9) is correct; null when `validate_checksum` is false',
  ),
  decoded: describe(z.nullable(DecodedVin), 'Null when `decode` is false'),
});

export const VinReadResult = z.object({
  vin: describe(z.nullable(ReadVin), 'The VIN read; null when none is legible'),
  needs_review: NeedsReview,
});
export type VinReadResult = z.infer<typeof VinReadResult>;
