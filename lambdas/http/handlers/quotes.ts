import { CATALOGUE } from '../../domain/catalogue/catalogue.js';
import { quoteCall as quote } from '../../domain/jobs/quotes.js';
import { implement } from '../implement.js';
import { parseQuote } from '../inference/call.js';
import * as quotes from '../routes/quotes.js';

/** `POST /v1/{slug}/quote` for every slug: parse the call's JSON body, quote it (domain/jobs/quotes.ts). */
export const quoteCall = implement(quotes.QUOTE_ROUTES, async ({ route, services, principal, request }) => {
  const endpoint = CATALOGUE[route.quoteOf];
  return { status: 200, body: await quote(services, principal, endpoint, await parseQuote(request, endpoint)) };
});
