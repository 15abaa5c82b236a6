import {
  formatPlaneDeclaration,
  type PlaneDeclaration,
  parsePlaneDeclaration,
  REFERENCE_PLANE_ENDPOINTS,
} from '../lambdas/domain/catalogue/plane-declaration.js';
import type { ManagementSettings } from './management-settings.js';
import { SettingError } from './wait-ceiling.js';

/**
 * What the stack's live inference plane computes, from the deploy-time settings (docs/internals/inference-plane.md,
 * "What a plane declares"): the reference plane declares its own list, the fixture plane every
 * endpoint, an external plane what `-c inferencePlaneModels` lists (every endpoint without it), and
 * a stack without a plane nothing. Settings that contradict each other fail the synth.
 */
export function planeDeclarationOf(settings: ManagementSettings): PlaneDeclaration {
  if (settings.referencePlane && settings.fixturePlane)
    throw new SettingError(
      '-c referencePlane=true and -c fixturePlane=true: a stack has one inference plane; choose one (the fixture plane is for wiring tests only).',
    );
  const bundled = settings.referencePlane ? 'referencePlane' : settings.fixturePlane ? 'fixturePlane' : undefined;
  if (settings.inferencePlaneModels !== undefined && (bundled || !settings.inferencePlaneUrl))
    throw new SettingError(
      bundled
        ? `-c inferencePlaneModels declares an external plane's models; the ${bundled} declares its own.`
        : '-c inferencePlaneModels declares what the plane at -c inferencePlaneUrl computes: give that URL too.',
    );
  if (settings.referencePlane) return REFERENCE_PLANE_ENDPOINTS;
  if (settings.fixturePlane) return 'every_endpoint';
  if (!settings.inferencePlaneUrl) return [];
  if (settings.inferencePlaneModels === undefined) return 'every_endpoint';
  try {
    const declared = parsePlaneDeclaration(settings.inferencePlaneModels);
    if (declared !== 'every_endpoint' && declared.length === 0)
      throw new Error(
        '-c inferencePlaneModels is empty: list the endpoint slugs the plane computes, e.g. plate.read,vin.read',
      );
    return declared;
  } catch (error) {
    throw new SettingError(`-c inferencePlaneModels: ${(error as Error).message}`);
  }
}

/** The functions' view of it (`INFERENCE_PLANE_ENDPOINTS`, read by `containerFromEnvironment`). */
export function planeEndpointsValue(settings: ManagementSettings): string {
  return formatPlaneDeclaration(planeDeclarationOf(settings));
}
