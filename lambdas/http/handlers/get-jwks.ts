import { implementJwt } from '../implement-jwt.js';
import { getJwks } from '../routes/internal.js';

/** `GET /.well-known/jwks.json`: the keys dashboard tokens verify against (the local issuer's, or the configured issuer's). */
export const handler = implementJwt(getJwks, async ({ services }) => ({
  status: 200,
  body: await services.tokens.publishedKeys(),
  headers: { 'Cache-Control': 'public, max-age=300' },
}));
