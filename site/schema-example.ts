/** A JSON Schema object of the OpenAPI document, read loosely: the reference only reads it. */
export type JsonSchema = { [keyword: string]: unknown };

const MAX_DEPTH = 24;

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The component a local `$ref` names (`#/components/schemas/Job` → the Job schema), or undefined. */
export function resolveRef(document: JsonSchema, ref: string): JsonSchema | undefined {
  let node: unknown = document;
  for (const part of ref.replace(/^#\//, '').split('/')) node = isSchema(node) ? node[part] : undefined;
  return isSchema(node) ? node : undefined;
}

/** An id of the right shape for a pattern such as `^job_[1-9A-HJ-NP-Za-km-z]{8,32}$`: its prefix and a made-up tail. */
function sampleForPattern(pattern: string): string | undefined {
  const prefix = /^\^([a-z]+_)\[/.exec(pattern)?.[1];
  if (prefix) return `${prefix}9xKq2WmR4tVz`;
  if (pattern === '^[A-Z]{2}$') return 'DE';
  return undefined;
}

function sampleString(schema: JsonSchema): string {
  if (schema.format === 'date-time') return '2026-08-01T12:00:00Z';
  if (schema.format === 'date') return '2026-08-01';
  if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/…';
  if (schema.format === 'email') return 'ada@example.com';
  if (typeof schema.pattern === 'string') return sampleForPattern(schema.pattern) ?? 'string';
  if (schema.contentMediaType) return '<file>';
  return 'string';
}

/**
 * A value that fits the schema, made up from its keywords (const, default, the first enum
 * value, an id's prefix), for the reference's example answers: the OpenAPI document carries no
 * examples of its own, and real answers of every endpoint are on the endpoint pages.
 */
export function exampleOf(document: JsonSchema, schema: JsonSchema, depth = 0, seen: readonly string[] = []): unknown {
  if (depth > MAX_DEPTH) return {};
  if (typeof schema.$ref === 'string') {
    if (seen.includes(schema.$ref)) return {};
    const target = resolveRef(document, schema.$ref);
    return target ? exampleOf(document, target, depth + 1, [...seen, schema.$ref]) : {};
  }
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const choices = Array.isArray(schema[keyword]) ? (schema[keyword] as unknown[]).filter(isSchema) : [];
    const first = choices.find((choice) => choice.type !== 'null') ?? choices[0];
    if (first) return exampleOf(document, first, depth + 1, seen);
  }
  if (Array.isArray(schema.allOf)) {
    const merged: Record<string, unknown> = {};
    for (const part of schema.allOf.filter(isSchema)) {
      const value = exampleOf(document, part, depth + 1, seen);
      if (isSchema(value)) Object.assign(merged, value);
    }
    if (isSchema(schema.properties))
      Object.assign(merged, exampleOf(document, { properties: schema.properties }, depth + 1, seen));
    return merged;
  }
  const type = Array.isArray(schema.type) ? schema.type.find((name) => name !== 'null') : schema.type;
  if (type === 'object' || isSchema(schema.properties)) {
    const properties = isSchema(schema.properties) ? schema.properties : {};
    return Object.fromEntries(
      Object.entries(properties)
        .filter((entry): entry is [string, JsonSchema] => isSchema(entry[1]))
        .map(([name, property]) => [name, exampleOf(document, property, depth + 1, seen)]),
    );
  }
  if (type === 'array') return isSchema(schema.items) ? [exampleOf(document, schema.items, depth + 1, seen)] : [];
  if (type === 'string') return sampleString(schema);
  if (type === 'integer' || type === 'number') {
    if (typeof schema.minimum === 'number') return schema.minimum;
    if (typeof schema.exclusiveMinimum === 'number') return schema.exclusiveMinimum + (type === 'integer' ? 1 : 0.5);
    return type === 'integer' ? 1 : 0.5;
  }
  if (type === 'boolean') return false;
  if (type === 'null') return null;
  return {};
}
