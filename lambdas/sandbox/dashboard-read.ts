import { DashboardReadParams } from '../schemas/params/dashboard-read.js';
import { WARNING_LIGHTS } from '../schemas/results/dashboard-read.js';
import { defineSandboxModel, needsReview, randomBox } from './support.js';

type WarningLight = (typeof WARNING_LIGHTS)[number];

/** ISO 2575 colours: red means stop now, amber means check soon. */
const LAMP_COLORS: Readonly<Record<WarningLight, 'red' | 'amber'>> = {
  check_engine: 'amber',
  abs: 'amber',
  airbag: 'red',
  oil_pressure: 'red',
  battery: 'red',
  tire_pressure: 'amber',
  brake_system: 'red',
  coolant_temperature: 'red',
  glow_plug: 'amber',
  traction_control: 'amber',
  low_fuel: 'amber',
  service_due: 'amber',
};

const KM_PER_MILE = 1.609344;

export const dashboardReadModel = defineSandboxModel('dashboard.read', DashboardReadParams, (context) => {
  const { params } = context;
  const rng = context.rng();
  const clusterType = rng.pick(['analog', 'digital'] as const);
  const billableUnits = context.assets.length;
  // none of the repository's samples shows an instrument cluster: nothing to read on them
  if (context.empty || context.sample()) {
    return {
      result: {
        cluster_type: clusterType,
        odometer: null,
        fuel_level: null,
        warning_lights: params.detect_warning_lights ? [] : null,
        needs_review: false,
      },
      billableUnits,
    };
  }
  const unit = params.odometer_unit === 'auto' ? (rng.chance(0.85) ? 'km' : 'mi') : params.odometer_unit;
  const value = rng.int(3_000, 240_000);
  const odometer = {
    value,
    unit,
    value_km: unit === 'km' ? value : Math.round(value * KM_PER_MILE),
    confidence: context.confidence(rng),
    bbox: randomBox(rng, 0.08, 0.2),
  };
  const fuelLevel = { percent: rng.int(4, 100), confidence: context.confidence(rng) };
  const lamps = rng.sample(WARNING_LIGHTS, rng.int(0, 3)).map((type) => ({
    type,
    color: LAMP_COLORS[type],
    confidence: context.confidence(rng),
    bbox: randomBox(rng, 0.02, 0.06),
  }));
  const warningLights = params.detect_warning_lights ? lamps : null;
  return {
    result: {
      cluster_type: clusterType,
      odometer,
      fuel_level: fuelLevel,
      warning_lights: warningLights,
      needs_review: needsReview([
        odometer.confidence,
        fuelLevel.confidence,
        ...(warningLights ?? []).map((lamp) => lamp.confidence),
      ]),
    },
    billableUnits,
  };
});
