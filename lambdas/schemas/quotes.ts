import * as z from 'zod/mini';
import { CATALOGUE, ENDPOINT_SLUGS } from '../domain/catalogue/catalogue.js';
import { DEFAULT_CONFIG } from '../domain/ports/services.js';
import { describe, meta } from './zod.js';

/** The most assets any call takes (an inspection: a video and 30 photos). */
const MOST_ASSETS = Math.max(...ENDPOINT_SLUGS.map((slug) => CATALOGUE[slug].maxAssets));

/** The largest file a call takes: an upload (multipart files are smaller, DEFAULT_CONFIG.maxFileBytes). */
export const MAX_DESCRIBED_FILE_BYTES = 500 * 1024 * 1024;

/** A day: longer than any clip a per-second endpoint accepts, so a described duration is never cut off by this bound. */
const MAX_DURATION_SECONDS = 24 * 3600;

export const DescribedInputsSchema = meta(
  z
    .array(
      z.strictObject({
        content_type: describe(
          z.string().check(z.minLength(1), z.maxLength(255)),
          'media type of the file you would send',
        ),
        size_bytes: describe(
          z.int().check(z.minimum(1), z.maximum(MAX_DESCRIBED_FILE_BYTES)),
          'its size in bytes (up to 500 MB as an upload)',
        ),
        duration_seconds: z.optional(
          describe(
            z.number().check(z.positive(), z.maximum(MAX_DURATION_SECONDS)),
            'how long an audio or video input runs; per-second endpoints estimate by it',
          ),
        ),
      }),
    )
    .check(z.minLength(1), z.maxLength(MOST_ASSETS)),
  {
    id: 'DescribedInputs',
    description: `the files the call would send, described instead of uploaded (instead of input_ref / input_refs); multipart files are at most ${DEFAULT_CONFIG.maxFileBytes / 1024 / 1024} MB`,
  },
);

export const QuoteSchema = meta(
  z.strictObject({
    object: z.literal('quote'),
    endpoint: z.string(),
    livemode: z.boolean(),
    metering: z.enum(['per_image', 'per_request', 'per_second', 'per_inspection']),
    units: describe(z.number(), 'metered units the call would bill on success, as far as its inputs tell'),
    credits: z.strictObject({
      reserve: describe(z.int(), 'credits the call would reserve if sent now: exactly what its admission holds'),
      estimate: describe(z.int(), 'credits it would charge on success, as far as its inputs tell; never above reserve'),
    }),
    balance: describe(z.int(), "the mode's credit balance now"),
    affordable: describe(
      z.boolean(),
      "whether the call would be admitted on credit now: the balance and the key's spend limit both cover reserve",
    ),
    reason: describe(
      z.nullable(z.enum(['insufficient_credits', 'spend_limit_exceeded'])),
      "why the call would be refused, as the error code it would get: insufficient_credits when the balance is short (checked first), spend_limit_exceeded when the key's spend limit is; null when affordable",
    ),
  }),
  { id: 'Quote' },
);
