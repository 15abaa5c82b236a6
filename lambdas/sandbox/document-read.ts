import { DOCUMENT_TYPES, DocumentReadParams } from '../schemas/params/document-read.js';
import { generatePlate } from './plates.js';
import type { Rng } from './prng.js';
import { boxIn, fixtureConfidence } from './samples/readings.js';
import type { Sample } from './samples/scenes.js';
import { monoLineBox } from './samples/text-boxes.js';
import { defineSandboxModel, needsReview, type SandboxContext } from './support.js';
import { VEHICLE_COLORS, VEHICLE_MODELS } from './vehicles.js';
import { generateVin } from './vin.js';

type DocumentType = (typeof DOCUMENT_TYPES)[number];

const HOLDERS = [
  'Anna Schmidt',
  'Lukas Müller',
  'Marie Dubois',
  'Giulia Rossi',
  'Jan de Vries',
  'Oliver Smith',
  'Lucía García',
  'Piotr Nowak',
];
const INSURERS = ['Allianz', 'AXA', 'Generali', 'HUK-Coburg', 'Aviva', 'Zurich'];
const DEALERS = ['Autohaus Nord GmbH', 'Garage Central SARL', 'City Motors Ltd', 'AutoCentro S.p.A.'];
const ISSUING_COUNTRIES = ['DE', 'FR', 'IT', 'ES', 'NL', 'GB'] as const;

interface FieldDraft {
  key: string;
  label: string;
  value: string;
}

function isoDate(rng: Rng, fromYear: number, toYear: number): string {
  const month = String(rng.int(1, 12)).padStart(2, '0');
  const day = String(rng.int(1, 28)).padStart(2, '0');
  return `${rng.int(fromYear, toYear)}-${month}-${day}`;
}

/** The fields each kind of document carries, with plausible, mutually consistent values. */
function draftFields(rng: Rng, type: DocumentType, country: string): FieldDraft[] {
  const model = rng.pick(VEHICLE_MODELS);
  const year = rng.int(model.yearFrom, model.yearTo);
  const vin = generateVin(rng, model.wmi, year);
  const plate = generatePlate(rng, country).text;
  const holder = rng.pick(HOLDERS);
  switch (type) {
    case 'registration_certificate':
      return [
        { key: 'plate', label: 'Registration number', value: plate },
        { key: 'vin', label: 'Vehicle identification number', value: vin },
        { key: 'make', label: 'Make', value: model.make },
        { key: 'model', label: 'Model', value: model.model },
        { key: 'first_registration_date', label: 'Date of first registration', value: isoDate(rng, year, year) },
        { key: 'holder_name', label: 'Registered keeper', value: holder },
        { key: 'fuel_type', label: 'Fuel', value: rng.pick(['petrol', 'diesel', 'hybrid']) },
        {
          key: 'engine_capacity_cc',
          label: 'Engine capacity (cm³)',
          value: String(rng.pick([999, 1395, 1498, 1598, 1968, 1995])),
        },
        { key: 'power_kw', label: 'Power (kW)', value: String(rng.int(55, 190)) },
        { key: 'color', label: 'Colour', value: rng.pick(VEHICLE_COLORS).name },
      ];
    case 'insurance_certificate': {
      const validFrom = isoDate(rng, 2025, 2026);
      return [
        {
          key: 'policy_number',
          label: 'Policy number',
          value: `${rng.chars('ABCDEFGHJKLMNPRSTUVWXYZ', 2)}-${rng.chars('0123456789', 8)}`,
        },
        { key: 'insurer', label: 'Insurer', value: rng.pick(INSURERS) },
        { key: 'holder_name', label: 'Policyholder', value: holder },
        { key: 'plate', label: 'Registration number', value: plate },
        { key: 'vin', label: 'Vehicle identification number', value: vin },
        { key: 'valid_from', label: 'Valid from', value: validFrom },
        { key: 'valid_to', label: 'Valid to', value: `${Number(validFrom.slice(0, 4)) + 1}${validFrom.slice(4)}` },
      ];
    }
    case 'inspection_report': {
      const inspected = isoDate(rng, 2024, 2026);
      return [
        { key: 'inspection_date', label: 'Date of inspection', value: inspected },
        { key: 'result', label: 'Result', value: rng.pick(['pass', 'pass', 'pass_with_minor_defects', 'fail']) },
        { key: 'odometer_km', label: 'Odometer (km)', value: String(rng.int(8_000, 210_000)) },
        {
          key: 'next_inspection_due',
          label: 'Next inspection due',
          value: `${Number(inspected.slice(0, 4)) + 2}${inspected.slice(4, 7)}`,
        },
        { key: 'plate', label: 'Registration number', value: plate },
        { key: 'vin', label: 'Vehicle identification number', value: vin },
      ];
    }
    case 'purchase_invoice':
      return [
        { key: 'invoice_number', label: 'Invoice number', value: `INV-${rng.chars('0123456789', 6)}` },
        { key: 'invoice_date', label: 'Invoice date', value: isoDate(rng, 2024, 2026) },
        { key: 'seller_name', label: 'Seller', value: rng.pick(DEALERS) },
        { key: 'buyer_name', label: 'Buyer', value: holder },
        { key: 'vin', label: 'Vehicle identification number', value: vin },
        { key: 'make', label: 'Make', value: model.make },
        { key: 'model', label: 'Model', value: model.model },
        { key: 'total_amount', label: 'Total', value: (rng.int(80, 600) * 100).toFixed(2) },
        { key: 'currency', label: 'Currency', value: country === 'GB' ? 'GBP' : 'EUR' },
      ];
  }
}

export const documentReadModel = defineSandboxModel('document.read', DocumentReadParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const pageCount = context.asset.contentType === 'application/pdf' ? rng.int(1, 3) : 1;
  if (context.empty) {
    return {
      result: {
        document_type: 'unknown',
        country: params.country ?? null,
        page_count: pageCount,
        fields: [],
        raw_text: params.return_raw_text ? '' : null,
        needs_review: false,
      },
      billableUnits: 1,
    };
  }
  const sample = context.sample();
  if (sample) return { result: sampleDocument(context, sample), billableUnits: 1 };
  const documentType = params.document_type === 'auto' ? rng.pick(DOCUMENT_TYPES) : params.document_type;
  const country = params.country ?? rng.pick(ISSUING_COUNTRIES);
  const drafts = draftFields(rng, documentType, country);
  // fields read top to bottom, spread over the pages
  const fields = drafts.map((draft, i) => {
    const perPage = Math.ceil(drafts.length / pageCount);
    const row = i % perPage;
    return {
      ...draft,
      confidence: context.confidence(rng),
      page: Math.floor(i / perPage) + 1,
      bbox: {
        x: rng.float(0.05, 0.4, 4),
        y: Math.round(((row + 1) / (perPage + 2)) * 10_000) / 10_000,
        width: rng.float(0.2, 0.5, 4),
        height: 0.035,
      },
    };
  });
  return {
    result: {
      document_type: documentType,
      country,
      page_count: pageCount,
      fields,
      raw_text: params.return_raw_text ? fields.map((field) => `${field.label}: ${field.value}`).join('\n') : null,
      needs_review: needsReview(fields.map((field) => field.confidence)),
    },
    billableUnits: 1,
  };
});

/**
 * The registration certificate's printed fields, each boxed where its value was set; the document
 * names no issuing country. Other samples are no document: nothing is read from them.
 */
function sampleDocument(context: SandboxContext<DocumentReadParams>, sample: Sample) {
  const { params } = context;
  if (sample.kind !== 'document') {
    return {
      document_type: 'unknown' as const,
      country: params.country ?? null,
      page_count: 1,
      fields: [],
      raw_text: params.return_raw_text ? '' : null,
      needs_review: false,
    };
  }
  const confidence = fixtureConfidence(context);
  const fields = sample.fields.map((field) => ({
    key: field.key,
    label: field.label,
    value: field.value,
    confidence,
    page: 1,
    bbox: boxIn(sample, monoLineBox(field.line)),
  }));
  return {
    document_type: sample.documentType,
    country: params.country ?? null,
    page_count: 1,
    fields,
    raw_text: params.return_raw_text
      ? [sample.title, ...sample.fields.map((field) => `${field.label} ${field.value}`)].join('\n')
      : null,
    needs_review: needsReview(fields.map((field) => field.confidence)),
  };
}
