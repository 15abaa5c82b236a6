import * as z from 'zod/mini';
import { countryHintParam, integerParam } from './fields.js';

export const VehicleIdentifyParams = z.strictObject({
  top_k: integerParam('Most candidate identifications to return, best first', { min: 1, max: 10 }, 3),
  country: countryHintParam('Market the vehicle was sold in; favours regional model names'),
});
export type VehicleIdentifyParams = z.output<typeof VehicleIdentifyParams>;
