import { PricingVehicleParams } from '../schemas/params/pricing-vehicle.js';
import { eurToMinor, MARKETS, roundMinor } from './markets.js';
import type { Rng } from './prng.js';
import { defineSandboxModel } from './support.js';
import { VEHICLE_MODELS, type VehicleModel, WMI_TABLE } from './vehicles.js';
import { decodeModelYear } from './vin.js';

/** Ages are measured against a fixed reference year (docs/results.md), not the clock, so results never drift. */
const VALUATION_YEAR = 2026;
const KM_PER_YEAR = 15_000;
const CONDITION_FACTOR = { excellent: 1.08, good: 1, fair: 0.9, poor: 0.75 } as const;

interface PricedVehicle {
  make: string;
  model: string;
  year: number;
  newPriceEur: number;
}

/** Explicit make/model/year win over what the VIN decodes to: the caller knows the car. */
function identify(rng: Rng, params: PricingVehicleParams): PricedVehicle {
  const byWmi = params.vin ? VEHICLE_MODELS.filter((model) => model.wmi === params.vin?.slice(0, 3)) : [];
  const byName = VEHICLE_MODELS.find(
    (model) =>
      model.make.toLowerCase() === params.make?.toLowerCase() &&
      model.model.toLowerCase() === params.model?.toLowerCase(),
  );
  const known: VehicleModel = byName ?? (byWmi.length > 0 ? rng.pick(byWmi) : rng.pick(VEHICLE_MODELS));
  const decodedYear = params.vin ? decodeModelYear(params.vin[9] ?? '') : null;
  return {
    make: params.make ?? (params.vin ? WMI_TABLE[params.vin.slice(0, 3)]?.manufacturer : undefined) ?? known.make,
    model: params.model ?? known.model,
    year: params.year ?? decodedYear ?? known.yearFrom,
    // an unknown model still gets a stable list price from the seed
    newPriceEur: byName || byWmi.length > 0 || !params.make ? known.newPriceEur : rng.int(18, 60) * 1000,
  };
}

export const pricingVehicleModel = defineSandboxModel('pricing.vehicle', PricingVehicleParams, (context) => {
  const { params } = context;
  const rng = context.rng([]);
  const market = MARKETS[params.country];
  const currency = params.currency ?? market.currency;
  const vehicle = identify(rng, params);
  const age = Math.max(0, VALUATION_YEAR - vehicle.year);
  const mileage = params.mileage_km ?? Math.max(0, age * KM_PER_YEAR + rng.int(-3_000, 3_000));
  const described = {
    vin: params.vin ?? null,
    make: vehicle.make,
    model: vehicle.model,
    year: vehicle.year,
    trim: params.trim ?? null,
    mileage_km: mileage,
    mileage_estimated: params.mileage_km === undefined,
    condition: params.condition,
  };
  if (context.empty) {
    return {
      result: {
        vehicle: described,
        country: params.country,
        currency,
        valuation: null,
        comparables_count: 0,
        confidence: null,
        needs_review: false,
      },
      billableUnits: 1,
    };
  }
  // a new car loses ~10 % on registration and ~8 % a year after; mileage beyond average costs more
  const excessKm = mileage - Math.max(1, age) * KM_PER_YEAR;
  const mileageFactor = Math.min(1.1, Math.max(0.6, 1 - (excessKm / 10_000) * 0.03));
  const retailEur =
    vehicle.newPriceEur *
    0.9 *
    0.92 ** age *
    mileageFactor *
    CONDITION_FACTOR[params.condition] *
    market.priceLevel *
    rng.float(0.95, 1.05, 3);
  const spread = context.low ? rng.float(0.2, 0.3, 3) : rng.float(0.05, 0.1, 3);
  const range = (midEur: number) => {
    const mid = roundMinor(eurToMinor(midEur, currency), 50);
    return { low: roundMinor(mid * (1 - spread), 50), mid, high: roundMinor(mid * (1 + spread), 50) };
  };
  const confidence = context.confidence(rng, [0.75, 0.95]);
  return {
    result: {
      vehicle: described,
      country: params.country,
      currency,
      valuation: { retail: range(retailEur), private_party: range(retailEur * 0.92), trade_in: range(retailEur * 0.8) },
      // thin markets are what make a valuation uncertain
      comparables_count: context.low ? rng.int(2, 8) : rng.int(25, 400),
      confidence,
      needs_review: confidence < 0.5,
    },
    billableUnits: 1,
  };
});
