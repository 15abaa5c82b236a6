import { fixtureModel } from '../planes/fixture-model.js';
import { planeFunction } from '../planes/plane-function.js';

/** The fixture plane's Lambda (`-c fixturePlane=true`): every endpoint answered by its fixture, for wiring tests only. */
export const handler = planeFunction('fixture-inference-plane', fixtureModel);
