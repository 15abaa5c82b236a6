import { VinReadParams } from '../schemas/params/vin-read.js';
import { boxIn, fixtureConfidence } from './samples/readings.js';
import type { Sample } from './samples/scenes.js';
import { type MonoLine, monoLineBox } from './samples/text-boxes.js';
import { defineSandboxModel, type SandboxContext } from './support.js';
import { VEHICLE_MODELS } from './vehicles.js';
import { decodeVin, generateVin, hasValidCheckDigit } from './vin.js';

const LOCATIONS = ['windshield', 'door_jamb', 'registration_document', 'engine_bay', 'chassis'] as const;

export const vinReadModel = defineSandboxModel('vin.read', VinReadParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const billableUnits = context.assets.length;
  if (context.empty) return { result: { vin: null, needs_review: false }, billableUnits };
  const sample = context.sample();
  if (sample) return { result: sampleVin(context, sample), billableUnits };
  const model = rng.pick(VEHICLE_MODELS);
  const text = generateVin(rng, model.wmi, rng.int(model.yearFrom, model.yearTo));
  const width = rng.float(0.45, 0.85, 4);
  const height = rng.float(0.05, 0.12, 4);
  const confidence = context.confidence(rng);
  return {
    result: {
      vin: {
        text,
        confidence,
        bbox: { x: rng.float(0, 1 - width, 4), y: rng.float(0, 1 - height, 4), width, height },
        location: rng.pick(LOCATIONS),
        checksum_valid: params.validate_checksum ? hasValidCheckDigit(text) : null,
        decoded: params.decode ? decodeVin(text) : null,
      },
      needs_review: confidence < 0.5,
    },
    billableUnits,
  };
});

/** The VIN printed on the door-jamb label or the registration certificate, boxed where it was set. */
function sampleVin(context: SandboxContext<VinReadParams>, sample: Sample) {
  const found: {
    image: { width: number; height: number };
    line: MonoLine;
    location: (typeof LOCATIONS)[number];
  } | null =
    sample.kind === 'vin_label'
      ? { image: sample, line: sample.vin, location: 'door_jamb' }
      : sample.kind === 'document'
        ? (() => {
            const field = sample.fields.find((candidate) => candidate.key === 'vin');
            return field ? { image: sample, line: field.line, location: 'registration_document' as const } : null;
          })()
        : null;
  if (!found) return { vin: null, needs_review: false };
  const text = found.line.text;
  const confidence = fixtureConfidence(context);
  return {
    vin: {
      text,
      confidence,
      bbox: boxIn(found.image, monoLineBox(found.line)),
      location: found.location,
      checksum_valid: context.params.validate_checksum ? hasValidCheckDigit(text) : null,
      decoded: context.params.decode ? decodeVin(text) : null,
    },
    needs_review: confidence < 0.5,
  };
}
