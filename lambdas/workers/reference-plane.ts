import { fixtureModel } from '../planes/fixture-model.js';
import { planeFunction } from '../planes/plane-function.js';

/** The reference plane's Lambda (`-c referencePlane=true`): computes the endpoints it declares (REFERENCE_PLANE_ENDPOINTS). */
export const handler = planeFunction('reference-inference-plane', fixtureModel);
