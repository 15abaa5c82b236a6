import { ApiError } from '../kernel/errors.js';
import { ENDPOINT_SLUGS, type EndpointDefinition, type EndpointSlug } from './catalogue.js';

// What a stack's live inference plane computes, declared when the stack is deployed
// (docs/internals/inference-plane.md, "What a plane declares"): the catalogue's `availability` for live keys
// and the admission's `endpoint_not_available` both read it. Test keys are served by the fixture
// backend, which answers every endpoint.

/** Every endpoint (an external plane without a declaration, the fixture plane), or the listed ones. */
export type PlaneDeclaration = 'every_endpoint' | readonly EndpointSlug[];

/** What the bundled reference plane really computes: OCR on CPU (docs/internals/inference-plane.md). */
export const REFERENCE_PLANE_ENDPOINTS: readonly EndpointSlug[] = ['document.read', 'vin.read', 'plate.read'];

/** The environment variable a function reads its stack's declaration from: `*` for every endpoint, else a comma list (empty: no plane). */
export const PLANE_ENDPOINTS_VARIABLE = 'INFERENCE_PLANE_ENDPOINTS';

export type Availability = 'available' | 'planned';

/** The endpoint's availability in the caller's mode: every endpoint for a test key, the plane's declaration for a live one. */
export function availabilityOf(
  endpoint: Pick<EndpointDefinition, 'slug'>,
  livemode: boolean,
  declaration: PlaneDeclaration,
): Availability {
  if (!livemode || declaration === 'every_endpoint') return 'available';
  return declaration.includes(endpoint.slug) ? 'available' : 'planned';
}

/** A call (or quote, or batch) of an endpoint its mode does not compute: refused before anything is reserved or queued. */
export function requireAvailable(
  endpoint: Pick<EndpointDefinition, 'slug'>,
  livemode: boolean,
  declaration: PlaneDeclaration,
  param: string | null = null,
): void {
  if (availabilityOf(endpoint, livemode, declaration) === 'available') return;
  throw new ApiError(
    'endpoint_not_available',
    param,
    `${endpoint.slug} is planned for live keys on this deployment: its inference plane does not compute it. Test keys can call it; GET /v1/endpoints lists what live keys can call.`,
  );
}

/** `*` → every endpoint; `a,b` → those slugs; empty → none. An unknown slug is a deploy mistake: it fails loudly. */
export function parsePlaneDeclaration(value: string): PlaneDeclaration {
  const trimmed = value.trim();
  if (trimmed === '*') return 'every_endpoint';
  if (trimmed === '') return [];
  const slugs = trimmed.split(',').map((slug) => slug.trim());
  const unknown = slugs.filter((slug) => !(ENDPOINT_SLUGS as readonly string[]).includes(slug));
  if (unknown.length)
    throw new Error(
      `unknown endpoint slug(s) in the plane declaration: ${unknown.join(', ')}; known: ${ENDPOINT_SLUGS.join(', ')}`,
    );
  return [...new Set(slugs)] as EndpointSlug[];
}

/** The value of `PLANE_ENDPOINTS_VARIABLE` for a declaration. */
export function formatPlaneDeclaration(declaration: PlaneDeclaration): string {
  return declaration === 'every_endpoint' ? '*' : declaration.join(',');
}
