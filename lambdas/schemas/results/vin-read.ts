import * as z from 'zod';
import { BoundingBox, Confidence, NeedsReview } from './common.js';
import { Vin } from './vocabulary.js';

const DecodedVin = z
  .object({
    wmi: z.string().length(3).describe('World manufacturer identifier (positions 1-3)'),
    manufacturer: z.string().nullable().describe('Manufacturer the WMI is assigned to; null when unknown'),
    country: z.string().nullable().describe('Country of manufacture, ISO 3166-1 alpha-2; null when unknown'),
    model_year: z.int().nullable().describe('Model year from position 10 (the most recent matching 30-year cycle)'),
    plant_code: z.string().length(1).describe('Assembly plant code (position 11)'),
    serial_number: z.string().length(6).describe('Production sequence number (positions 12-17)'),
  })
  .describe('Fields decoded from the VIN');

const ReadVin = z.object({
  text: Vin,
  confidence: Confidence,
  bbox: BoundingBox,
  location: z.enum(['windshield', 'door_jamb', 'registration_document', 'engine_bay', 'chassis', 'unknown']).describe('Where on the vehicle (or document) the VIN was found'),
  checksum_valid: z.boolean().nullable().describe('Whether the check digit (position 9) is correct; null when `validate_checksum` is false'),
  decoded: DecodedVin.nullable().describe('Null when `decode` is false'),
});

export const VinReadResult = z.object({
  vin: ReadVin.nullable().describe('The VIN read; null when none is legible'),
  needs_review: NeedsReview,
});
export type VinReadResult = z.infer<typeof VinReadResult>;
