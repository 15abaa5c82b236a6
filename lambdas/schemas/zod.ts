import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * The schemas are written with `zod/mini`: classic zod attaches dozens of methods to every schema
 * at construction and does not tree-shake, which made it most of a Lambda's own import time.
 *
 * Mini loads no locale, so issue messages would read "Invalid input"; the API quotes them in its
 * 400s, so they stay classic zod's English: the schema modules load this one (directly or through
 * their field builders), and lambdas/http/validation.ts, which quotes the messages, imports it too.
 */
z.config(en());

/**
 * A copy of `schema` carrying `metadata` in the global registry (what the JSON Schema generator
 * reads: `id` names an OpenAPI component, `description` documents a field), as classic zod's
 * `.meta()` does. Not mini's `z.meta()` / `z.describe()` checks: a check stays in the schema's
 * check list, so `z.extend` would copy it (and its `id`) onto the extended schema, and `z.pick`,
 * `z.omit` and `z.partial` refuse objects that have checks.
 */
export function meta<T extends z.ZodMiniType>(schema: T, metadata: z.core.GlobalMeta): T {
  const copy = schema.clone();
  z.globalRegistry.add(copy, metadata);
  return copy;
}

/** A copy of `schema` with a description, as classic zod's `.describe()`. */
export function describe<T extends z.ZodMiniType>(schema: T, description: string): T {
  return meta(schema, { description });
}

const refusals = new WeakMap<object, Readonly<Record<string, string>>>();

/**
 * Marks parameters an object schema refuses on purpose (a filter other lists take that has no
 * meaning here), each with the sentence validation answers instead of a bare "Unknown parameter".
 * They stay out of the schema, so the OpenAPI document does not offer them.
 */
export function refusing<T extends object>(schema: T, reasons: Readonly<Record<string, string>>): T {
  refusals.set(schema, reasons);
  return schema;
}

/** Why `schema` refuses the parameter `name`, when it does so on purpose. */
export function refusalOf(schema: object, name: string): string | undefined {
  return refusals.get(schema)?.[name];
}

/** Classic zod's `z.preprocess`: `fn` runs on the raw input before `schema` validates it. */
export function preprocess<T extends z.core.$ZodType>(
  fn: (value: unknown) => unknown,
  schema: T,
): z.ZodMiniPipe<z.ZodMiniTransform<unknown, unknown>, T> {
  return z.pipe<z.ZodMiniTransform<unknown, unknown>, T>(z.transform(fn), schema);
}
