import { requireFamily } from '../access/api-keys.js';
import type { Principal } from '../access/principal.js';
import { spendCounterOf } from '../access/spend-limits.js';
import type { EndpointDefinition, Metering } from '../catalogue/catalogue.js';
import { requireAvailable } from '../catalogue/plane-declaration.js';
import type { InspectionStageName } from '../catalogue/stage-names.js';
import { checkInspectionInputs } from '../inspections/plan.js';
import { epochSeconds } from '../kernel/clock.js';
import { ApiError } from '../kernel/errors.js';
import type { Services } from '../ports/services.js';
import { callPrice } from './call-price.js';
import { withDurations } from './input-durations.js';
import type { InputAsset } from './job.js';
import { acceptedInputsOf, resolveUploads } from './uploads.js';

// `POST /v1/{slug}/quote`: what the call would reserve now and charge on success, from the same
// checks and the same price rule as its admission, writing nothing (docs/internals/quotes.md).

/** A file the caller would send, described instead of uploaded. */
export interface DescribedInput {
  content_type: string;
  size_bytes: number;
  duration_seconds?: number | undefined;
}

/** A quote request as the HTTP layer parsed it: the call's JSON body, its inputs as upload references or described. */
export interface QuoteRequest {
  kind: 'job' | 'inspection';
  inputRefs: string[];
  inputRefsParam: 'input_ref' | 'input_refs';
  /** `inputs`, when the body describes the files instead of naming uploads */
  described: DescribedInput[] | null;
  /** an inspection's excluded stages */
  exclude: InspectionStageName[];
}

export interface Quote {
  object: 'quote';
  endpoint: string;
  livemode: boolean;
  metering: Metering;
  units: number;
  credits: { reserve: number; estimate: number };
  balance: number;
  affordable: boolean;
  /** the error code the call would get now, in the admission's order; null when affordable */
  reason: QuoteRefusal | null;
}

/** Why a call would not be admitted on credit: the code of the `402` it would get. */
export type QuoteRefusal = 'insufficient_credits' | 'spend_limit_exceeded';

/**
 * Quotes a call: the key's scopes, the endpoint's availability and the request's own checks, in the
 * admission's order and with its errors; then the call's price and the mode's balance.
 */
export async function quoteCall(
  services: Services,
  principal: Principal,
  endpoint: EndpointDefinition,
  request: QuoteRequest | ApiError,
): Promise<Quote> {
  requireFamily(principal, endpoint.family);
  requireAvailable(endpoint, principal.livemode, services.config.planeEndpoints);
  if (request instanceof ApiError) throw request;
  const [inputs, balance, room] = await Promise.all([
    request.described
      ? describedAssets(endpoint, request.described)
      : resolveUploads(services, principal, endpoint, request.inputRefs, request.inputRefsParam).then((resolved) =>
          // an upload's clip is measured from its header, as the call's admission will measure it
          withDurations(services, endpoint, resolved.inputs),
        ),
    services.accounts.getBalance(principal.orgId, principal.livemode),
    spendRoom(services, principal),
  ]);
  if (request.kind === 'inspection') checkInspection(inputs, request);
  const priced = request.described?.map((input) => ({ ...input, described: true })) ?? inputs;
  const price = callPrice(endpoint, priced, request.exclude);
  const reason = refusalOf(price.reserve, balance, room);
  return {
    object: 'quote',
    endpoint: endpoint.slug,
    livemode: principal.livemode,
    metering: price.metering,
    units: price.units,
    credits: { reserve: price.reserve, estimate: price.estimate },
    balance,
    affordable: reason === null,
    reason,
  };
}

/** The admission takes the balance before the spend limit, so a call short of both gets insufficient_credits. */
function refusalOf(reserve: number, balance: number, room: number): QuoteRefusal | null {
  if (balance < reserve) return 'insufficient_credits';
  if (room < reserve) return 'spend_limit_exceeded';
  return null;
}

/** What the key may still reserve in its spend limit's period (docs/internals/spend-limits.md); unbounded without a limit. */
async function spendRoom(services: Services, principal: Principal): Promise<number> {
  const limit = principal.spendLimit;
  if (!limit) return Number.POSITIVE_INFINITY;
  const [spent] = await services.accounts.readKeySpend([
    spendCounterOf(principal.apiKeyId, limit.period, epochSeconds(services.clock)),
  ]);
  return limit.credits - spent!;
}

/** An inspection's mix of video and photos, refused naming the field that carried them. */
function checkInspection(inputs: readonly InputAsset[], request: QuoteRequest): void {
  try {
    checkInspectionInputs(inputs, request.exclude);
  } catch (error) {
    if (request.described && error instanceof ApiError)
      throw new ApiError(error.code, 'inputs', error.message.replaceAll('input_refs', 'inputs'));
    throw error;
  }
}

/** Described files, checked as the admission checks uploaded ones: a media type the call takes. */
function describedAssets(endpoint: EndpointDefinition, described: readonly DescribedInput[]): InputAsset[] {
  const accepts = acceptedInputsOf(endpoint);
  return described.map((input, index) => {
    if (!accepts.test(input.content_type))
      throw new ApiError(
        'parameter_invalid',
        `inputs.${index}.content_type`,
        `${input.content_type} is not what ${endpoint.slug} takes: ${accepts.description}.`,
      );
    return {
      index,
      filename: null,
      content_type: input.content_type,
      size_bytes: input.size_bytes,
      sha256: null,
      object_key: '',
    };
  });
}
