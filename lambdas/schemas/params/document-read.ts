import * as z from 'zod/mini';
import { describe } from '../zod.js';
import { booleanParam, countryHintParam } from './fields.js';

export const DOCUMENT_TYPES = [
  'registration_certificate',
  'insurance_certificate',
  'inspection_report',
  'purchase_invoice',
] as const;

export const DocumentReadParams = z.strictObject({
  document_type: describe(
    z._default(z.enum(['auto', ...DOCUMENT_TYPES]), 'auto'),
    'Kind of document, or `auto` to classify it first',
  ),
  country: countryHintParam('Issuing country of the document'),
  return_raw_text: booleanParam('Also return the full recognised text (`raw_text`); null when false', false),
});
export type DocumentReadParams = z.output<typeof DocumentReadParams>;
