import {
  billableSeconds,
  chargeFor,
  type EndpointDefinition,
  type Metering,
  reservationFor,
} from '../catalogue/catalogue.js';
import type { InspectionStageName } from '../catalogue/stage-names.js';
import { inspectionPrice } from '../inspections/pricing.js';

// What an inference call costs. The admission reserves `reserve` with the job and a quote shows it
// beside `estimate`: both read this one rule, so a quote is what the call holds (docs/internals/quotes.md).

/**
 * An input as pricing sees it: an uploaded or sent file, or a quote's described one, with how long it
 * runs when that is known (measured from the file's header by the service, or described by a quote);
 * null or absent when it is not.
 */
export interface PricedInput {
  content_type: string;
  duration_seconds?: number | null | undefined;
  /**
   * The length was described by a quote's caller, not measured by the service: it sets the
   * estimate, but the reservation holds the longest clip, as the call would for a clip it cannot read
   */
  described?: boolean;
}

export interface CallPrice {
  metering: Metering;
  /** metered units on success, as far as the inputs tell */
  units: number;
  /** credits held at admission: the most the call can cost */
  reserve: number;
  /** credits charged on success, as far as the inputs tell; never above `reserve` */
  estimate: number;
}

/**
 * The price of a call of `endpoint` with these inputs (and, for an inspection, these excluded
 * stages). A per-second input of unknown duration counts as the longest clip the endpoint accepts,
 * which is what its reservation holds.
 */
export function callPrice(
  endpoint: EndpointDefinition,
  inputs: readonly PricedInput[],
  exclude: readonly InspectionStageName[] = [],
): CallPrice {
  if (endpoint.metering === 'per_inspection') {
    const price = inspectionPrice(exclude);
    return { metering: endpoint.metering, units: 1, reserve: price, estimate: price };
  }
  const units = meteredUnits(endpoint, inputs);
  // a per-second call holds what its clips measure; one of unknown (or only described) length holds the longest clip accepted
  const measured = inputs.map((input) => (input.described ? { ...input, duration_seconds: null } : input));
  const reserve =
    endpoint.metering === 'per_second'
      ? endpoint.price * meteredUnits(endpoint, measured)
      : reservationFor(endpoint, inputs.length);
  return { metering: endpoint.metering, units, reserve, estimate: chargeFor(endpoint, units, reserve) };
}

/**
 * The units a succeeded job is billed: what the model reported, never more than its inputs measure.
 * A per-second job is billed at most its clips' started seconds (the endpoint's longest clip for a
 * clip whose length could not be read), whatever the plane says it processed (docs/internals/jobs-and-credits.md).
 */
export function billedUnits(endpoint: EndpointDefinition, inputs: readonly PricedInput[], reported: number): number {
  if (endpoint.metering !== 'per_second') return reported;
  return Math.min(reported, meteredUnits(endpoint, inputs));
}

function meteredUnits(endpoint: EndpointDefinition, inputs: readonly PricedInput[]): number {
  if (endpoint.metering === 'per_image') return Math.max(inputs.length, 1);
  if (endpoint.metering !== 'per_second') return 1;
  const perAsset = endpoint.reserveUnitsPerAsset;
  const assets: readonly Partial<PricedInput>[] = inputs.length ? inputs : [{}];
  return assets.reduce(
    (sum, input) =>
      sum +
      (input.duration_seconds === undefined || input.duration_seconds === null
        ? perAsset
        : billableSeconds(input.duration_seconds, perAsset)),
    0,
  );
}
