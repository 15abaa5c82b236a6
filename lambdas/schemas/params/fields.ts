import * as z from 'zod/mini';
import { describe, preprocess } from '../zod.js';

/**
 * Field builders for endpoint parameters. Parameters arrive either as multipart text
 * fields (always strings) or as JSON values, so numbers and booleans accept both forms.
 * Coercion is deliberately narrow: only a well-formed numeric or boolean string is
 * converted; anything else reaches the inner schema unchanged and is rejected there
 * (unlike `z.coerce`, which turns "" into 0 and "abc" into true).
 *
 * Defaults sit inside the `preprocess` so `z.toJSONSchema(..., { io: 'input' })`
 * still publishes them.
 */

const INTEGER_STRING = /^-?\d+$/;
const DECIMAL_STRING = /^-?(?:\d+\.?\d*|\.\d+)$/;

function numberFromString(pattern: RegExp) {
  return (value: unknown): unknown =>
    typeof value === 'string' && pattern.test(value.trim()) ? Number(value.trim()) : value;
}

function booleanFromString(value: unknown): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

/**
 * Only a string of the field's own form is converted, so whatever fails these checks is simply not
 * an integer (or a number): say so. zod's own wording ("expected number, received string" for `2.5`
 * in a multipart field, where every value is a string) blames the transport, not the value.
 */
function received(input: unknown): string {
  return typeof input === 'string' ? JSON.stringify(input) : String(input);
}
const integer = () =>
  z.int({
    error: (issue) =>
      issue.code === 'invalid_type' ? `expected an integer, received ${received(issue.input)}` : undefined,
  });
const decimal = () =>
  z.number({
    error: (issue) =>
      issue.code === 'invalid_type' ? `expected a number, received ${received(issue.input)}` : undefined,
  });

interface Bounds {
  min: number;
  max: number;
}

export function booleanParam(description: string, defaultValue: boolean) {
  return describe(preprocess(booleanFromString, z._default(z.boolean(), defaultValue)), description);
}

export function integerParam(description: string, bounds: Bounds, defaultValue: number) {
  return describe(
    preprocess(
      numberFromString(INTEGER_STRING),
      z._default(integer().check(z.minimum(bounds.min), z.maximum(bounds.max)), defaultValue),
    ),
    description,
  );
}

export function optionalIntegerParam(description: string, bounds: Bounds) {
  return describe(
    preprocess(
      numberFromString(INTEGER_STRING),
      z.optional(integer().check(z.minimum(bounds.min), z.maximum(bounds.max))),
    ),
    description,
  );
}

export function numberParam(description: string, bounds: Bounds, defaultValue: number) {
  return describe(
    preprocess(
      numberFromString(DECIMAL_STRING),
      z._default(decimal().check(z.minimum(bounds.min), z.maximum(bounds.max)), defaultValue),
    ),
    description,
  );
}

/** A small set of allowed integers, e.g. an upscale factor of 1, 2 or 4. */
export function integerChoiceParam<const Values extends readonly [number, ...number[]]>(
  description: string,
  values: Values,
  defaultValue: Values[number],
) {
  return describe(
    preprocess(numberFromString(INTEGER_STRING), z._default(z.literal(values), defaultValue)),
    description,
  );
}

export function minConfidenceParam(defaultValue: number) {
  return numberParam(
    'Drop detections whose confidence is below this threshold (0 to 1)',
    { min: 0, max: 1 },
    defaultValue,
  );
}

/** Upper-cased before the check so `de` and `DE` both work; the published enum stays canonical. */
export function countryHintParam(description: string) {
  return describe(
    upperCased(z.optional(z.string().check(z.regex(/^[A-Z]{2}$/)))),
    `${description} (ISO 3166-1 alpha-2, e.g. \`DE\`)`,
  );
}

/** Accepts any letter case for codes such as `de` or `EUR`; the published schema shows the canonical case. */
export function upperCased<T extends z.ZodMiniType>(schema: T) {
  return preprocess((value) => (typeof value === 'string' ? value.toUpperCase() : value), schema);
}

export function lowerCased<T extends z.ZodMiniType>(schema: T) {
  return preprocess((value) => (typeof value === 'string' ? value.toLowerCase() : value), schema);
}
