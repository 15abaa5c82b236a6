import { INSPECTION_FAILURE_SCENARIOS, type InspectionFailureScenario } from './stage-names.js';

/**
 * The one table of endpoints. Prices, metering, input kinds, wait support, queue
 * timeouts and supported test scenarios all come from here; the catalogue route,
 * admission, the test-mode backend, the route table and the CDK stack read it.
 */
export const ENDPOINT_SLUGS = [
  'vehicle.analyze',
  'vehicle.segment',
  'vehicle.identify',
  'vin.read',
  'plate.read',
  'document.read',
  'dashboard.read',
  'engine.detect',
  'video.onboard',
  'damage.detect',
  'damage.severity',
  'tire.read',
  'tire.detect',
  'parts.recognize',
  'parts.segment',
  'parts.decompose',
  'pricing.vehicle',
  'pricing.repair',
  'render.background',
  'render.enhance',
  'render.plate',
  'render.360',
  'render.video',
  'viewer.hotspots',
  'inspections',
] as const;

export type EndpointSlug = (typeof ENDPOINT_SLUGS)[number];
export type InferenceSlug = Exclude<EndpointSlug, 'inspections'>;

export const FAMILIES = ['A', 'B', 'C', 'D', 'E', 'inspections'] as const;
export type Family = (typeof FAMILIES)[number];
/** What each family (an API key scope) covers, in words. */
export const FAMILY_NAMES: Record<Family, string> = {
  A: 'Understand the vehicle',
  B: 'Damage and condition',
  C: 'Parts',
  D: 'Money',
  E: 'Image production',
  inspections: 'Inspections',
};

export type Metering = 'per_image' | 'per_request' | 'per_second' | 'per_inspection';
export type InputKind = 'image' | 'images' | 'audio' | 'video' | 'document' | 'json';

export const COMMON_SCENARIOS = [
  'empty_result',
  'low_confidence',
  'model_error',
  'slow',
  'insufficient_credits',
] as const;
export const SPECIFIC_SCENARIOS = ['unreadable_input', 'upstream_timeout'] as const;
/**
 * Scenarios that hold a job in the queue to reach a timing edge without waiting for it: `expire`
 * (the queue timeout, on every endpoint) and `wait_timeout` (the `wait=true` ceiling, on the
 * endpoints that accept `wait`). The catalogue adds them to every endpoint that can have them.
 */
export const TIMING_SCENARIOS = ['expire', 'wait_timeout'] as const;
export type Scenario =
  | (typeof COMMON_SCENARIOS)[number]
  | (typeof SPECIFIC_SCENARIOS)[number]
  | (typeof TIMING_SCENARIOS)[number]
  | InspectionFailureScenario;
export const ALL_SCENARIOS: readonly Scenario[] = [
  ...COMMON_SCENARIOS,
  ...SPECIFIC_SCENARIOS,
  ...TIMING_SCENARIOS,
  ...INSPECTION_FAILURE_SCENARIOS,
];

export interface EndpointDefinition {
  slug: EndpointSlug;
  family: Family;
  name: string;
  metering: Metering;
  /** credits per metered unit */
  price: number;
  inputKind: InputKind;
  /** multipart field carrying the binary; null when the endpoint takes no file */
  fileField: 'image' | 'audio' | 'video' | 'images' | null;
  /** how many assets one call accepts */
  minAssets: number;
  maxAssets: number;
  /** units reserved per asset (per_second endpoints reserve their longest accepted clip) */
  reserveUnitsPerAsset: number;
  acceptsWait: boolean;
  /** video, 360 and batch inputs travel only as JSON input_ref(s) */
  requiresJsonEncoding: boolean;
  queueTimeoutSeconds: number;
  model: string;
  modelReleaseDate: string;
  scenarios: readonly Scenario[];
  /**
   * A sandbox model may return an input unchanged as a produced file (a server-side copy of
   * the stored input), so its multipart inputs must be kept. Every other sandbox model derives its
   * result from the SHA-256 taken while parsing and never reads the bytes, so test mode skips
   * storing them (one S3 PUT fewer per call). Internal: not part of the public catalogue.
   */
  sandboxReturnsInputs: boolean;
  /** what the endpoint's own parameters can be refused with beyond a plain invalid value (docs/internals/uploads.md, "Client-supplied URLs") */
  paramErrors: readonly ParamErrorCode[];
}

/** Refusals a parameter schema raises itself: a URL the pipeline would fetch, two parameters sent together. */
export type ParamErrorCode = 'url_not_public' | 'parameters_exclusive';

export const DEFAULT_QUEUE_TIMEOUT_SECONDS = 15 * 60;

const ALL_BUT_EMPTY_AND_LOW_CONFIDENCE: readonly Scenario[] = [
  'model_error',
  'slow',
  'insufficient_credits',
  'unreadable_input',
  'upstream_timeout',
];
// every scenario the test-mode backend honours for a single model call; `fail_at_<stage>` fails a
// stage of an inspection, so only `inspections` offers it (listing it here would accept and ignore it)
const IMAGE_UNDERSTANDING: readonly Scenario[] = [...COMMON_SCENARIOS, ...SPECIFIC_SCENARIOS];
const PRICING: readonly Scenario[] = [
  'empty_result',
  'low_confidence',
  'model_error',
  'slow',
  'insufficient_credits',
  'upstream_timeout',
];

type Defaulted =
  | 'minAssets'
  | 'maxAssets'
  | 'reserveUnitsPerAsset'
  | 'requiresJsonEncoding'
  | 'sandboxReturnsInputs'
  | 'paramErrors';
type Row = Omit<EndpointDefinition, Defaulted | 'queueTimeoutSeconds'> & Partial<Pick<EndpointDefinition, Defaulted>>;

const rows: Row[] = [
  {
    slug: 'vehicle.analyze',
    family: 'A',
    name: 'Vehicle analysis',
    metering: 'per_image',
    price: 4,
    inputKind: 'image',
    fileField: 'image',
    acceptsWait: true,
    model: 'vehicle-analyzer-v3',
    modelReleaseDate: '2026-07-14',
    scenarios: IMAGE_UNDERSTANDING,
  },
  {
    slug: 'vehicle.segment',
    family: 'A',
    name: 'Vehicle segmentation',
    metering: 'per_image',
    price: 6,
    inputKind: 'image',
    fileField: 'image',
    acceptsWait: true,
    model: 'vehicle-segmenter-v2',
    modelReleaseDate: '2026-05-02',
    scenarios: IMAGE_UNDERSTANDING,
  },
  {
    slug: 'vehicle.identify',
    family: 'A',
    name: 'Model identification',
    metering: 'per_image',
    price: 5,
    inputKind: 'image',
    fileField: 'image',
    acceptsWait: true,
    model: 'make-model-year-v5',
    modelReleaseDate: '2026-06-30',
    scenarios: IMAGE_UNDERSTANDING,
  },
  {
    slug: 'vin.read',
    family: 'A',
    name: 'VIN reading',
    metering: 'per_image',
    price: 3,
    inputKind: 'image',
    fileField: 'image',
    acceptsWait: true,
    model: 'vin-ocr-v4',
    modelReleaseDate: '2026-04-18',
    scenarios: IMAGE_UNDERSTANDING,
  },
  {
    slug: 'plate.read',
    family: 'A',
    name: 'Licence plate reading',
    metering: 'per_image',
    price: 2,
    inputKind: 'image',
    fileField: 'image',
    acceptsWait: true,
    model: 'plate-reader-v6',
    modelReleaseDate: '2026-07-01',
    scenarios: IMAGE_UNDERSTANDING,
  },
  {
    slug: 'document.read',
    family: 'A',
    name: 'Vehicle document reading',
    metering: 'per_request',
    price: 5,
    inputKind: 'document',
    fileField: 'image',
    acceptsWait: true,
    model: 'doc-reader-v2',
    modelReleaseDate: '2026-03-09',
    scenarios: IMAGE_UNDERSTANDING,
  },
  {
    slug: 'dashboard.read',
    family: 'A',
    name: 'Dashboard and mileage reading',
    metering: 'per_image',
    price: 3,
    inputKind: 'image',
    fileField: 'image',
    acceptsWait: true,
    model: 'dashboard-reader-v3',
    modelReleaseDate: '2026-05-21',
    scenarios: IMAGE_UNDERSTANDING,
  },
  {
    slug: 'engine.detect',
    family: 'A',
    name: 'Engine sound diagnosis',
    metering: 'per_second',
    price: 1,
    inputKind: 'audio',
    fileField: 'audio',
    reserveUnitsPerAsset: 30,
    acceptsWait: true,
    model: 'engine-sound-v2',
    modelReleaseDate: '2026-02-27',
    scenarios: IMAGE_UNDERSTANDING,
  },
  {
    slug: 'video.onboard',
    family: 'A',
    name: 'Video onboarding',
    metering: 'per_second',
    price: 1,
    inputKind: 'video',
    fileField: 'video',
    reserveUnitsPerAsset: 180,
    requiresJsonEncoding: true,
    acceptsWait: false,
    model: 'walkaround-onboarder-v1',
    modelReleaseDate: '2026-06-05',
    scenarios: IMAGE_UNDERSTANDING,
  },
  {
    slug: 'damage.detect',
    family: 'B',
    name: 'Damage detection',
    metering: 'per_image',
    price: 5,
    inputKind: 'image',
    fileField: 'image',
    acceptsWait: true,
    model: 'damage-detector-v7',
    modelReleaseDate: '2026-07-22',
    scenarios: IMAGE_UNDERSTANDING,
  },
  {
    slug: 'damage.severity',
    family: 'B',
    name: 'Damage severity grading',
    metering: 'per_image',
    price: 6,
    inputKind: 'image',
    fileField: 'image',
    acceptsWait: true,
    model: 'damage-severity-v3',
    modelReleaseDate: '2026-06-11',
    scenarios: IMAGE_UNDERSTANDING,
  },
  {
    slug: 'tire.read',
    family: 'B',
    name: 'Tire sidewall reading',
    metering: 'per_image',
    price: 3,
    inputKind: 'image',
    fileField: 'image',
    acceptsWait: true,
    model: 'tire-dot-reader-v2',
    modelReleaseDate: '2026-04-02',
    scenarios: IMAGE_UNDERSTANDING,
  },
  {
    slug: 'tire.detect',
    family: 'B',
    name: 'Tire wear detection',
    metering: 'per_image',
    price: 3,
    inputKind: 'image',
    fileField: 'image',
    acceptsWait: true,
    model: 'tread-wear-v2',
    modelReleaseDate: '2026-05-15',
    scenarios: IMAGE_UNDERSTANDING,
  },
  {
    slug: 'parts.recognize',
    family: 'C',
    name: 'Parts recognition',
    metering: 'per_image',
    price: 4,
    inputKind: 'image',
    fileField: 'image',
    acceptsWait: true,
    model: 'parts-recognizer-v4',
    modelReleaseDate: '2026-06-19',
    scenarios: IMAGE_UNDERSTANDING,
  },
  {
    slug: 'parts.segment',
    family: 'C',
    name: 'Parts segmentation',
    metering: 'per_image',
    price: 6,
    inputKind: 'image',
    fileField: 'image',
    acceptsWait: true,
    model: 'parts-segmenter-v3',
    modelReleaseDate: '2026-06-19',
    scenarios: IMAGE_UNDERSTANDING,
  },
  {
    slug: 'parts.decompose',
    family: 'C',
    name: 'Parts decomposition',
    metering: 'per_image',
    price: 8,
    inputKind: 'image',
    fileField: 'image',
    acceptsWait: true,
    model: 'parts-decomposer-v2',
    modelReleaseDate: '2026-05-28',
    scenarios: IMAGE_UNDERSTANDING,
  },
  {
    slug: 'pricing.vehicle',
    family: 'D',
    name: 'Vehicle pricing',
    metering: 'per_request',
    price: 10,
    inputKind: 'json',
    fileField: null,
    acceptsWait: true,
    model: 'vehicle-pricer-v5',
    modelReleaseDate: '2026-08-01',
    scenarios: PRICING,
  },
  {
    slug: 'pricing.repair',
    family: 'D',
    name: 'Repair pricing',
    metering: 'per_request',
    price: 8,
    inputKind: 'json',
    fileField: null,
    acceptsWait: true,
    model: 'repair-estimator-v3',
    modelReleaseDate: '2026-07-08',
    scenarios: PRICING,
  },
  {
    slug: 'render.background',
    family: 'E',
    name: 'Background replacement',
    metering: 'per_image',
    price: 10,
    inputKind: 'images',
    fileField: 'images',
    minAssets: 1,
    maxAssets: 30,
    acceptsWait: true,
    // a passthrough (empty background selector) returns the input itself
    sandboxReturnsInputs: true,
    // its logo and banner URLs are fetched; some banner parameters exclude others
    paramErrors: ['url_not_public', 'parameters_exclusive'],
    model: 'studio-background-v8',
    modelReleaseDate: '2026-07-30',
    scenarios: ALL_BUT_EMPTY_AND_LOW_CONFIDENCE,
  },
  {
    slug: 'render.enhance',
    family: 'E',
    name: 'Image quality improvement',
    metering: 'per_image',
    price: 6,
    inputKind: 'image',
    fileField: 'image',
    acceptsWait: true,
    model: 'image-enhancer-v4',
    modelReleaseDate: '2026-06-24',
    scenarios: ALL_BUT_EMPTY_AND_LOW_CONFIDENCE,
  },
  {
    slug: 'render.plate',
    family: 'E',
    name: 'Licence plate replacement',
    metering: 'per_image',
    price: 4,
    inputKind: 'image',
    fileField: 'image',
    acceptsWait: true,
    // its logo URL is fetched
    paramErrors: ['url_not_public'],
    model: 'plate-masker-v3',
    modelReleaseDate: '2026-05-06',
    scenarios: IMAGE_UNDERSTANDING,
  },
  {
    slug: 'render.360',
    family: 'E',
    name: '360 spin generation',
    metering: 'per_request',
    price: 80,
    inputKind: 'images',
    fileField: 'images',
    minAssets: 8,
    maxAssets: 72,
    requiresJsonEncoding: true,
    acceptsWait: false,
    model: 'spin-builder-v2',
    modelReleaseDate: '2026-04-25',
    scenarios: ALL_BUT_EMPTY_AND_LOW_CONFIDENCE,
  },
  {
    slug: 'render.video',
    family: 'E',
    name: 'Ad video generation',
    metering: 'per_request',
    price: 120,
    inputKind: 'images',
    fileField: 'images',
    minAssets: 1,
    maxAssets: 30,
    requiresJsonEncoding: true,
    acceptsWait: false,
    model: 'ad-video-v1',
    modelReleaseDate: '2026-07-17',
    scenarios: ALL_BUT_EMPTY_AND_LOW_CONFIDENCE,
  },
  {
    slug: 'viewer.hotspots',
    family: 'E',
    name: '360 viewer hotspots',
    metering: 'per_request',
    price: 15,
    inputKind: 'images',
    fileField: 'images',
    minAssets: 8,
    maxAssets: 72,
    requiresJsonEncoding: true,
    acceptsWait: false,
    model: 'hotspot-anchor-v2',
    modelReleaseDate: '2026-06-02',
    scenarios: IMAGE_UNDERSTANDING,
  },
  // the eight-stage Step Functions pipeline (docs/internals/inspections.md): one walk-around video plus 1 to 30 photos;
  // price is the blended price of a full inspection (excluded stages take their share off, see inspection-stages.ts)
  {
    slug: 'inspections',
    family: 'inspections',
    name: 'Vehicle inspection (eight stages)',
    metering: 'per_inspection',
    price: 150,
    inputKind: 'images',
    fileField: 'images',
    minAssets: 1,
    maxAssets: 31,
    requiresJsonEncoding: true,
    acceptsWait: false,
    model: 'inspection-bundle-v1',
    modelReleaseDate: '2026-08-01',
    scenarios: ['model_error', 'slow', 'insufficient_credits', ...INSPECTION_FAILURE_SCENARIOS],
  },
];

/** Every endpoint can expire while queued; only one that accepts `wait` has a wait ceiling to reach. */
function timingScenariosOf(row: Pick<EndpointDefinition, 'acceptsWait'>): Scenario[] {
  return row.acceptsWait ? ['expire', 'wait_timeout'] : ['expire'];
}

export const CATALOGUE: Readonly<Record<EndpointSlug, EndpointDefinition>> = Object.fromEntries(
  rows.map((row): [EndpointSlug, EndpointDefinition] => [
    row.slug,
    {
      queueTimeoutSeconds: DEFAULT_QUEUE_TIMEOUT_SECONDS,
      minAssets: 1,
      maxAssets: 1,
      reserveUnitsPerAsset: 1,
      requiresJsonEncoding: false,
      sandboxReturnsInputs: false,
      paramErrors: [],
      ...row,
      scenarios: [...row.scenarios, ...timingScenariosOf(row)],
    } satisfies EndpointDefinition,
  ]),
) as Record<EndpointSlug, EndpointDefinition>;

/** Ends the `model_version` of a result a fixture made rather than a model (the fixture plane, docs/internals/inference-plane.md). */
export const FIXTURE_VERSION_SUFFIX = '-fixture';

export function modelVersionOf(endpoint: EndpointDefinition): string {
  return `${endpoint.model}@${endpoint.modelReleaseDate}`;
}

export type Encoding = 'multipart' | 'json';

/**
 * The request encodings an endpoint takes: multipart and JSON where it takes a file, JSON only for
 * endpoints whose inputs travel as uploads (`requiresJsonEncoding`) or that take no file.
 */
export function encodingsOf(endpoint: EndpointDefinition): Encoding[] {
  return endpoint.fileField && !endpoint.requiresJsonEncoding ? ['multipart', 'json'] : ['json'];
}

/** What a test-mode job ran: the fixture backend, never the model itself (docs/test-fixtures.md). */
export function fixtureModelVersionOf(endpoint: EndpointDefinition): string {
  return `${modelVersionOf(endpoint)}-fixture`;
}

/** Credits held at admission: the most the call can cost. */
export function reservationFor(endpoint: EndpointDefinition, assetCount: number): number {
  const assets = endpoint.metering === 'per_image' || endpoint.metering === 'per_second' ? Math.max(assetCount, 1) : 1;
  return endpoint.price * assets * (endpoint.metering === 'per_second' ? endpoint.reserveUnitsPerAsset : 1);
}

/**
 * per_second metering bills every started second of an asset (at least one: a model ran on it), never
 * more than the longest clip the endpoint accepts.
 */
export function billableSeconds(durationSeconds: number, reservePerAsset: number): number {
  return Math.min(Math.max(Math.ceil(durationSeconds), 1), reservePerAsset);
}

/** Credits charged for the units the model actually billed, never above the reservation. */
export function chargeFor(endpoint: EndpointDefinition, billableUnits: number, reserved: number): number {
  const flatRate = endpoint.metering === 'per_request' || endpoint.metering === 'per_inspection';
  const units = flatRate ? 1 : billableUnits;
  return Math.min(Math.max(0, Math.round(endpoint.price * units)), reserved);
}
