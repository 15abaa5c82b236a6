import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../site/openapi.js';

// Every string and array a client sends is bounded in the OpenAPI document, as the service bounds
// it (the document is generated from the same zod schemas that validate), and every operation says
// what it does (docs/internals/architecture.md, "What the OpenAPI document promises").

type Schema = Record<string, any>;
type Document = {
  paths: Record<string, Record<string, Schema>>;
  components: { schemas: Record<string, Schema>; parameters?: Record<string, Schema> };
};

/** Formats whose values have a fixed shape; `uri`, `email` and the like can be of any length and need `maxLength`. */
const FIXED_SHAPE_FORMATS = new Set(['date', 'date-time', 'time', 'uuid', 'ipv4', 'ipv6', 'int32', 'int64']);

/** An anchored pattern with no open-ended repetition matches only strings of bounded length. */
function boundedPattern(pattern: unknown): boolean {
  if (typeof pattern !== 'string' || !pattern.startsWith('^') || !pattern.endsWith('$')) return false;
  const unescaped = pattern.replace(/\\./g, '');
  return !/[*+]|\{\d+,\}/.test(unescaped);
}

function boundedString(schema: Schema): boolean {
  return (
    schema.maxLength !== undefined ||
    schema.enum !== undefined ||
    schema.const !== undefined ||
    boundedPattern(schema.pattern) ||
    FIXED_SHAPE_FORMATS.has(schema.format)
  );
}

/** Every unbounded string or array reachable from `schema`, named by where it is. */
function unboundedParts(
  document: Document,
  schema: Schema | undefined,
  where: string,
  seen = new Set<Schema>(),
): string[] {
  if (!schema || typeof schema !== 'object') return [];
  if (typeof schema.$ref === 'string') {
    const target = document.components.schemas[schema.$ref.split('/').pop()!];
    if (!target || seen.has(target)) return [];
    return unboundedParts(document, target, `${where}→${schema.$ref.split('/').pop()}`, new Set([...seen, target]));
  }
  const found: string[] = [];
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.includes('string') && !boundedString(schema))
    found.push(`${where}: string without maxLength, an anchored bounded pattern, enum or fixed format`);
  if (types.includes('array') && schema.maxItems === undefined) found.push(`${where}: array without maxItems`);
  for (const keyword of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
    for (const [i, inner] of (schema[keyword] ?? []).entries())
      found.push(...unboundedParts(document, inner, `${where}/${keyword}[${i}]`, seen));
  found.push(...unboundedParts(document, schema.items, `${where}[]`, seen));
  for (const [name, inner] of Object.entries<Schema>(schema.properties ?? {}))
    found.push(...unboundedParts(document, inner, `${where}.${name}`, seen));
  if (typeof schema.additionalProperties === 'object') {
    found.push(...unboundedParts(document, schema.additionalProperties, `${where}{value}`, seen));
    found.push(...unboundedParts(document, schema.propertyNames ?? { type: 'string' }, `${where}{key}`, seen));
  }
  return found;
}

/** What a client sends to each operation: its parameters and every encoding of its body. */
function requestParts(document: Document): Array<{ where: string; schema: Schema }> {
  const parts: Array<{ where: string; schema: Schema }> = [];
  for (const [path, operations] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(operations)) {
      for (const given of operation.parameters ?? []) {
        // a parameter many operations take is shared: components.parameters
        const parameter = given.$ref ? document.components.parameters![given.$ref.split('/').pop()]! : given;
        parts.push({
          where: `${method.toUpperCase()} ${path} ${parameter.in} ${parameter.name}`,
          schema: parameter.schema,
        });
      }
      for (const [type, content] of Object.entries<Schema>(operation.requestBody?.content ?? {}))
        parts.push({ where: `${method.toUpperCase()} ${path} body (${type})`, schema: content.schema });
    }
  return parts;
}

const document = buildOpenApiDocument() as unknown as Document;

describe('the OpenAPI document bounds what a client sends', () => {
  it('every request-side string has maxLength, an anchored bounded pattern, an enum or a fixed-shape format; every array has maxItems', () => {
    const parts = requestParts(document);
    expect(parts.length).toBeGreaterThan(100);
    expect(parts.flatMap(({ where, schema }) => unboundedParts(document, schema, where))).toEqual([]);
  });

  it('the check itself finds what is unbounded, through references, items, unions and maps', () => {
    const doc: Document = {
      paths: {},
      components: { schemas: { Named: { type: 'object', properties: { free: { type: 'string' } } } } },
    };
    const schema = {
      type: 'object',
      properties: {
        ok: { type: 'string', maxLength: 5 },
        open: { type: 'string', pattern: '^upl_' },
        repeated: { type: 'string', pattern: '^a+$' },
        bounded: { type: 'string', pattern: '^a{1,4}\\+$' },
        uri: { type: 'string', format: 'uri' },
        list: { type: 'array', items: { type: 'string', enum: ['x'] } },
        ref: { $ref: '#/components/schemas/Named' },
        either: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        map: { type: 'object', additionalProperties: { type: 'integer' } },
      },
    };
    expect(unboundedParts(doc, schema, 'x').map((line) => line.split(':')[0])).toEqual([
      'x.open',
      'x.repeated',
      'x.uri',
      'x.list',
      'x.ref→Named.free',
      'x.either/anyOf[0]',
      'x.map{key}',
    ]);
  });

  // the reference shows the summary as the operation's heading, so the description adds to it instead of restating it
  it('every operation has a description that says more than its summary, without restating it', () => {
    const missing = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(
          ([, operation]) =>
            typeof operation.description !== 'string' ||
            operation.description.length < 15 ||
            operation.description.includes(operation.summary),
        )
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(Object.keys(document.paths).length).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  it("leaves out the local runtime's own pages (/local/…)", () => {
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/local/'))).toEqual([]);
  });
});
