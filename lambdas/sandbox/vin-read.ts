import { VinReadParams } from '../schemas/params/vin-read.js';
import { defineSandboxModel } from './support.js';
import { VEHICLE_MODELS } from './vehicles.js';
import { decodeVin, generateVin, hasValidCheckDigit } from './vin.js';

const LOCATIONS = ['windshield', 'door_jamb', 'registration_document', 'engine_bay', 'chassis'] as const;

export const vinReadModel = defineSandboxModel('vin.read', VinReadParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const billableUnits = context.assets.length;
  if (context.empty) return { result: { vin: null, needs_review: false }, billableUnits };
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
