import { resolve } from 'node:path';

/**
 * The TypeScript compiler every check runs: TypeScript 7 (the native compiler, installed as
 * `typescript-native`), about five times less CPU than 5.9 over this repository. `typescript` stays at
 * 5.9 only because openapi-typescript calls its JavaScript API, which 7 does not have. Both install a
 * `tsc` binary, so `node_modules/.bin/tsc` may be either: callers name this file, never `.bin/tsc`.
 */
export const TYPE_CHECKER = resolve(import.meta.dirname, '../node_modules/typescript-native/bin/tsc');
