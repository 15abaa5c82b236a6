import { JwksSchema } from '../../../schemas/management.js';
import { implementJwt } from '../../implement-jwt.js';
import { defineRoute } from '../define.js';

export const route = defineRoute({
  module: import.meta.url,
  id: 'get-jwks',
  method: 'GET',
  path: '/.well-known/jwks.json',
  summary: 'The public keys dashboard tokens are verified with (JWKS)',
  tag: 'Internal',
  auth: 'none',
  middleware: [],
  responses: { 200: { description: 'a JSON Web Key Set', schema: JwksSchema } },
  errors: [],
  access: { table: 'none' },
  settings: ['jwt_issuer'],
  timeoutSeconds: 10,
  maxBodyBytes: 0,
});

/** `GET /.well-known/jwks.json`: the keys dashboard tokens verify against (the local issuer's, or the configured issuer's). */
export const handler = implementJwt(route, async ({ services }) => ({
  status: 200,
  body: await services.tokens.publishedKeys(),
  headers: { 'Cache-Control': 'public, max-age=300' },
}));
