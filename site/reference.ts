import { escapeHtml } from '../lambdas/http/html.js';
import { guideHtml } from './markdown.js';
import { exampleOf, type JsonSchema, resolveRef } from './schema-example.js';

/**
 * The API reference (/docs/reference) as one static page, rendered from the OpenAPI document
 * when the site is built: the families (tags) with their descriptions, one section per
 * operation at `#operation/<operationId>` (method, path, summary, description, parameters,
 * request body, answers and an example), then every shared schema and header at
 * `#header/<Name>`; the schemas have a page of their own (/docs/reference/schemas, `#schema/<Name>`),
 * which keeps the reference light. No script draws either: the pages are plain HTML and load
 * as fast as any guide (Redoc, which drew it before in the browser, took ~4.5 s of CPU).
 */

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const MAX_NESTED_DEPTH = 3;
const ERROR_ENVELOPE = '#/components/schemas/ErrorEnvelope';
/** Where every shared schema is drawn, one section each (`#schema/<Name>`). */
export const SCHEMAS_PAGE = '/docs/reference/schemas';

interface Operation {
  method: string;
  path: string;
  operation: JsonSchema;
}

/** The page a tag or endpoint links to when its operation has one of its own (the endpoint pages, by operationId). */
export type OperationPageOf = (operationId: string) => { href: string; label: string } | undefined;

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function entries(value: unknown): Array<[string, JsonSchema]> {
  return isSchema(value)
    ? Object.entries(value).filter((entry): entry is [string, JsonSchema] => isSchema(entry[1]))
    : [];
}

function componentName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** A tag's anchor: `A · Understand the vehicle` → `tag/a-understand-the-vehicle`. */
export function tagAnchor(tag: string): string {
  return `tag/${tag
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '')}`;
}

class ReferenceRenderer {
  constructor(
    private readonly document: JsonSchema,
    private readonly slugs: ReadonlySet<string>,
  ) {}

  markdown(text: unknown): string {
    return typeof text === 'string' && text.trim() ? guideHtml(text, this.slugs) : '';
  }

  /** A one-paragraph description without its paragraph, for a table cell: fewer elements on a long page. */
  inline(text: unknown): string {
    const html = this.markdown(text).trim();
    const single = /^<p>([\s\S]*)<\/p>$/.exec(html);
    return single && !single[1]!.includes('<p>') ? single[1]! : html;
  }

  /** A `$ref` followed once: the component and its name. */
  deref(schema: JsonSchema): { schema: JsonSchema; name?: string } {
    if (typeof schema.$ref !== 'string') return { schema };
    return { schema: resolveRef(this.document, schema.$ref) ?? {}, name: componentName(schema.$ref) };
  }

  /** A schema's type in a few words; a named component is a link to its section. */
  typeOf(schema: JsonSchema): string {
    if (typeof schema.$ref === 'string') {
      const name = componentName(schema.$ref);
      return `<a href="${SCHEMAS_PAGE}#schema/${escapeHtml(name)}">${escapeHtml(name)}</a>`;
    }
    if ('const' in schema) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const choices = Array.isArray(schema[keyword]) ? (schema[keyword] as unknown[]).filter(isSchema) : [];
      if (choices.length) return choices.map((choice) => this.typeOf(choice)).join(' or ');
    }
    if (Array.isArray(schema.allOf))
      return schema.allOf
        .filter(isSchema)
        .map((part) => this.typeOf(part))
        .join(' and ');
    const type = Array.isArray(schema.type) ? schema.type.join(' or ') : schema.type;
    if (type === 'array') return `array of ${isSchema(schema.items) ? this.typeOf(schema.items) : 'anything'}`;
    if (schema.contentMediaType) return 'file';
    if (typeof type === 'string') return escapeHtml(type);
    return isSchema(schema.properties) ? 'object' : 'any';
  }

  /** Defaults, bounds, patterns and allowed values, in words. */
  constraints(schema: JsonSchema): string {
    const parts: string[] = [];
    const code = (value: unknown) => `<code>${escapeHtml(JSON.stringify(value))}</code>`;
    if (Array.isArray(schema.enum)) parts.push(`one of ${schema.enum.map(code).join(', ')}`);
    if ('default' in schema) parts.push(`default ${code(schema.default)}`);
    for (const [keyword, words] of [
      ['minimum', '≥'],
      ['exclusiveMinimum', '>'],
      ['maximum', '≤'],
      ['exclusiveMaximum', '<'],
    ] as const)
      if (typeof schema[keyword] === 'number') parts.push(`${words} ${schema[keyword]}`);
    if (typeof schema.minLength === 'number') parts.push(`at least ${schema.minLength} characters`);
    if (typeof schema.maxLength === 'number')
      parts.push(
        schema.contentMediaType ? `at most ${schema.maxLength} bytes` : `at most ${schema.maxLength} characters`,
      );
    if (typeof schema.minItems === 'number') parts.push(`at least ${schema.minItems} items`);
    if (typeof schema.maxItems === 'number') parts.push(`at most ${schema.maxItems} items`);
    if (typeof schema.pattern === 'string') parts.push(`matches <code>${escapeHtml(schema.pattern)}</code>`);
    if (typeof schema.format === 'string') parts.push(`format ${escapeHtml(schema.format)}`);
    return parts.join('; ');
  }

  /** The properties a schema declares, following `allOf` (and, when `flatten`, the components it names). */
  fields(schema: JsonSchema, flatten: boolean): { inherited: string[]; rows: Array<[string, JsonSchema, boolean]> } {
    const inherited: string[] = [];
    const rows: Array<[string, JsonSchema, boolean]> = [];
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    for (const part of Array.isArray(schema.allOf) ? schema.allOf.filter(isSchema) : []) {
      if (typeof part.$ref === 'string' && !flatten) {
        inherited.push(componentName(part.$ref));
        continue;
      }
      const nested = this.fields(this.deref(part).schema, flatten);
      inherited.push(...nested.inherited);
      rows.push(...nested.rows);
    }
    for (const [name, property] of entries(schema.properties)) {
      const existing = rows.findIndex(([known]) => known === name);
      const row: [string, JsonSchema, boolean] = [name, property, required.has(name)];
      if (existing >= 0) rows[existing] = row;
      else rows.push(row);
    }
    return { inherited, rows };
  }

  /** One table row per field; an inline object's own fields follow it as `parent.child`. */
  fieldRows(rows: Array<[string, JsonSchema, boolean]>, prefix = '', depth = 0): string {
    return rows
      .map(([name, property, required]) => {
        const description = this.inline(property.description);
        const constraints = this.constraints(property);
        const row = `<tr><td><code>${escapeHtml(prefix + name)}</code>${required ? ' <span class="required">required</span>' : ''}</td><td>${this.typeOf(property)}</td><td>${description}${constraints ? `<br><span class="constraints">${constraints}</span>` : ''}</td></tr>`;
        const inline = property.type === 'array' && isSchema(property.items) ? property.items : property;
        const nested =
          typeof inline.$ref !== 'string' && depth < MAX_NESTED_DEPTH && isSchema(inline.properties)
            ? this.fieldRows(
                this.fields(inline, false).rows,
                `${prefix}${name}${inline === property ? '' : '[]'}.`,
                depth + 1,
              )
            : '';
        return row + nested;
      })
      .join('');
  }

  fieldTable(schema: JsonSchema, flatten: boolean): string {
    const { inherited, rows } = this.fields(schema, flatten);
    const every = inherited.length
      ? `<p>Every field of ${inherited.map((name) => `<a href="${SCHEMAS_PAGE}#schema/${escapeHtml(name)}">${escapeHtml(name)}</a>`).join(' and ')}${rows.length ? ', and:' : '.'}</p>`
      : '';
    if (!rows.length) return every;
    return `${every}<table class="fields" tabindex="0"><thead><tr><th scope="col">field</th><th scope="col">type</th><th scope="col">description</th></tr></thead><tbody>${this.fieldRows(rows)}</tbody></table>`;
  }

  example(schema: JsonSchema): string {
    return `<pre tabindex="0"><code class="language-json">${escapeHtml(JSON.stringify(exampleOf(this.document, schema), null, 2))}</code></pre>`;
  }

  /** A parameter's row; a shared one (`$ref`) links to its section, where its allowed values are listed once. */
  parameterRow(parameter: JsonSchema, shared?: string): string {
    const schema = isSchema(parameter.schema) ? parameter.schema : {};
    const constraints = shared ? '' : this.constraints(schema);
    const name = `<code>${escapeHtml(String(parameter.name))}</code>`;
    return `<tr><td>${shared ? `<a href="#parameter/${escapeHtml(shared)}">${name}</a>` : name}${parameter.required ? ' <span class="required">required</span>' : ''}</td><td>${escapeHtml(String(parameter.in))}</td><td>${this.typeOf(schema)}</td><td>${this.inline(parameter.description)}${constraints ? `<br><span class="constraints">${constraints}</span>` : ''}</td></tr>`;
  }

  parameterTable(rows: string): string {
    return `<table class="fields" tabindex="0"><thead><tr><th scope="col">name</th><th scope="col">in</th><th scope="col">type</th><th scope="col">description</th></tr></thead><tbody>${rows}</tbody></table>`;
  }

  parameters(operation: JsonSchema): string {
    const parameters = Array.isArray(operation.parameters) ? operation.parameters.filter(isSchema) : [];
    if (!parameters.length) return '';
    const rows = parameters.map((parameter) => {
      const { schema, name } = this.deref(parameter);
      return this.parameterRow(schema, name);
    });
    return `<h4>Parameters</h4>${this.parameterTable(rows.join(''))}`;
  }

  /**
   * The body's fields, once for every encoding: most endpoints take the same parameters as
   * multipart form fields or JSON and differ only in how the input travels (`image` or
   * `input_ref`), which the field's row says.
   */
  requestBody(operation: JsonSchema): string {
    if (!isSchema(operation.requestBody)) return '';
    const body = this.deref(operation.requestBody).schema;
    const media = entries(body.content).map(([type, content]) => {
      const schema = isSchema(content.schema) ? content.schema : {};
      return { type, schema, rows: this.fields(this.deref(schema).schema, true).rows };
    });
    if (!media.length) return '';
    const merged = new Map<string, { row: [string, JsonSchema, boolean]; types: string[] }>();
    for (const { type, rows } of media)
      for (const row of rows) {
        const known = merged.get(row[0]);
        if (known) known.types.push(type);
        else merged.set(row[0], { row, types: [type] });
      }
    const rows = [...merged.values()].map(({ row, types }) => {
      const only = types.length < media.length ? ` (${types.map((type) => escapeHtml(type)).join(', ')} only)` : '';
      const [name, schema, required] = row;
      return [
        name,
        only ? { ...schema, description: `${String(schema.description ?? '')}${only}` } : schema,
        required,
      ] as [string, JsonSchema, boolean];
    });
    const types = media
      .map(
        ({ type, schema }) =>
          `<code>${escapeHtml(type)}</code>${typeof schema.$ref === 'string' ? ` (${this.typeOf(schema)})` : ''}`,
      )
      .join(' or ');
    const table = rows.length
      ? `<table class="fields" tabindex="0"><thead><tr><th scope="col">field</th><th scope="col">type</th><th scope="col">description</th></tr></thead><tbody>${this.fieldRows(rows)}</tbody></table>`
      : '';
    const json = media.find(({ type }) => type === 'application/json');
    const example = json ? `<p>Example (JSON):</p>${this.example(json.schema)}` : '';
    return `<h4>Request body${body.required ? '' : ' (optional)'}</h4>${this.markdown(body.description)}<p class="media">As ${types}.</p>${table}${example}`;
  }

  /** An error answer's "error codes: a, b": each code is on the errors page (/docs/guides/errors), linked once from the top. */
  responseDescription(description: unknown): string {
    if (typeof description !== 'string') return '';
    const codes = /^error codes: ([a-z_, ]+)$/.exec(description)?.[1];
    return codes ? `error codes: <code>${escapeHtml(codes)}</code>` : this.inline(description);
  }

  responses(operation: JsonSchema): string {
    const answers = entries(operation.responses);
    if (!answers.length) return '';
    let example = '';
    const headers = new Map<string, string>();
    const rows = answers
      .map(([status, answer]) => {
        const resolved = this.deref(answer).schema;
        // 3.1 lets an operation say more beside the shared answer's $ref
        const description = answer.description ?? resolved.description;
        const bodies = entries(resolved.content).map(([, content]) => (isSchema(content.schema) ? content.schema : {}));
        for (const [name, header] of entries(resolved.headers))
          headers.set(
            name,
            typeof header.$ref === 'string'
              ? `<a href="#header/${escapeHtml(componentName(header.$ref))}">${escapeHtml(name)}</a>`
              : escapeHtml(name),
          );
        const first = bodies[0];
        if (!example && first && /^2/.test(status))
          example = `<p>Example answer (${escapeHtml(status)}):</p>${this.example(first)}`;
        // every error answers with the envelope (said once, above the families)
        const shown = bodies.filter((body) => body.$ref !== ERROR_ENVELOPE);
        return `<tr><td><code>${escapeHtml(status)}</code></td><td>${this.responseDescription(description)}${
          shown.length ? `<br>${shown.map((body) => this.typeOf(body)).join(', ')}` : ''
        }</td></tr>`;
      })
      .join('');
    const headerLine = headers.size
      ? `<p class="constraints">Answer headers: ${[...headers.values()].join(', ')}</p>`
      : '';
    return `<h4>Answers</h4><table class="fields" tabindex="0"><thead><tr><th scope="col">status</th><th scope="col">meaning</th></tr></thead><tbody>${rows}</tbody></table>${headerLine}${example}`;
  }

  security(operation: JsonSchema): string {
    const requirements = Array.isArray(operation.security) ? operation.security.filter(isSchema) : null;
    if (requirements === null) return '';
    if (!requirements.length || requirements.every((requirement) => !Object.keys(requirement).length))
      return '<p class="auth">No authentication.</p>';
    const names = requirements.flatMap((requirement) => Object.keys(requirement));
    return `<p class="auth">Authentication: ${names.map((name) => `<a href="#auth/${escapeHtml(name)}">${escapeHtml(name)}</a>`).join(' or ')}</p>`;
  }

  operation({ method, path, operation }: Operation, pageOf: OperationPageOf): string {
    const id = String(operation.operationId);
    const page = pageOf(id);
    return `<section class="operation" id="operation/${escapeHtml(id)}"><h3>${escapeHtml(String(operation.summary ?? id))}</h3>
<p class="route"><span class="method method-${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></p>
${this.security(operation)}${this.markdown(operation.description)}${page ? `<p><a href="${page.href}">${escapeHtml(page.label)}</a></p>` : ''}${this.parameters(operation)}${this.requestBody(operation)}${this.responses(operation)}</section>`;
  }

  schemaSection(name: string, schema: JsonSchema): string {
    const table = this.fieldTable(schema, false);
    const constraints = this.constraints(schema);
    const shape = table || `<p>${this.typeOf(schema)}${constraints ? `: ${constraints}` : ''}</p>`;
    return `<section class="schema" id="schema/${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>${this.markdown(schema.description)}${shape}</section>`;
  }
}

/** Every operation of the document, in the order of its paths. */
function operationsOf(document: JsonSchema): Operation[] {
  return entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => isSchema(item[method])).map((method) => ({
      method,
      path,
      operation: item[method] as JsonSchema,
    })),
  );
}

/** The reference page's content (inside the site's layout, under its one search box). */
export function referenceHtml(document: JsonSchema, slugs: ReadonlySet<string>, pageOf: OperationPageOf): string {
  const render = new ReferenceRenderer(document, slugs);
  const info = isSchema(document.info) ? document.info : {};
  const license = isSchema(info.license) ? info.license : {};
  const operations = operationsOf(document).filter((entry) => typeof entry.operation.operationId === 'string');
  const tags = entries(
    Object.fromEntries(
      (Array.isArray(document.tags) ? document.tags : []).filter(isSchema).map((tag) => [String(tag.name), tag]),
    ),
  );
  const tagged = (name: string) =>
    operations.filter(({ operation }) => Array.isArray(operation.tags) && operation.tags.includes(name));
  const untagged = operations.filter(({ operation }) => !Array.isArray(operation.tags) || !operation.tags.length);
  const groups: Array<[string, JsonSchema, Operation[]]> = [
    ...tags.map(([name, tag]): [string, JsonSchema, Operation[]] => [name, tag, tagged(name)]),
    ...(untagged.length ? [['Other', {}, untagged] as [string, JsonSchema, Operation[]]] : []),
  ];
  const components = isSchema(document.components) ? document.components : {};
  const servers = (Array.isArray(document.servers) ? document.servers : [])
    .filter(isSchema)
    .map((server) => String(server.url));

  const contents = groups
    .map(
      ([name, , list]) =>
        `<li><a href="#${tagAnchor(name)}">${escapeHtml(name)}</a><ul>${list
          .map(
            ({ method, path, operation }) =>
              `<li><a href="#operation/${escapeHtml(String(operation.operationId))}"><span class="method-text">${method.toUpperCase()}</span> ${escapeHtml(path)}</a></li>`,
          )
          .join('')}</ul></li>`,
    )
    .join('');
  const authentication = entries(components.securitySchemes)
    .map(
      ([name, scheme]) =>
        `<dt id="auth/${escapeHtml(name)}"><code>${escapeHtml(name)}</code></dt><dd>${escapeHtml(
          scheme.type === 'http' ? `HTTP ${String(scheme.scheme)}` : `${String(scheme.name)} header`,
        )}${scheme.description ? `: ${render.markdown(scheme.description).replace(/^<p>|<\/p>\n?$/g, '')}` : ''}</dd>`,
    )
    .join('');
  const sharedParameters = entries(components.parameters)
    .map(([name, parameter]) =>
      render.parameterRow(parameter).replace('<tr>', `<tr id="parameter/${escapeHtml(name)}">`),
    )
    .join('');
  const headers = entries(components.headers)
    .map(([name, header]) => {
      const schema = isSchema(header.schema) ? header.schema : {};
      return `<dt id="header/${escapeHtml(name)}"><code>${escapeHtml(name)}</code> (${render.typeOf(schema)})</dt><dd>${render.markdown(header.description) || ''}</dd>`;
    })
    .join('');

  return `<h1>API reference</h1>
<p class="lede">${escapeHtml(String(info.title ?? ''))}, API version <code>${escapeHtml(String(info.version ?? ''))}</code>. ${escapeHtml(String(info.description ?? ''))}</p>
<p>Licence: ${license.url ? `<a href="${escapeHtml(String(license.url))}">${escapeHtml(String(license.name))}</a>` : escapeHtml(String(license.name ?? ''))}. Base URL: ${servers.map((url) => `<code>${escapeHtml(url)}</code>`).join(', ')}. Every error answers with an <a href="${SCHEMAS_PAGE}#schema/ErrorEnvelope">ErrorEnvelope</a>; its codes are on <a href="/docs/guides/errors">Errors</a>. The OpenAPI 3.1 document: <a href="/docs/reference/openapi.json">openapi.json</a>. Search with the box above, or your browser's find.</p>
<nav class="reference-contents" aria-label="Operations"><h2>Operations</h2><ul>${contents}<li><a href="#authentication">Authentication</a></li><li><a href="${SCHEMAS_PAGE}">Schemas</a></li><li><a href="#parameters">Shared parameters</a></li><li><a href="#headers">Headers</a></li></ul></nav>
<h2 id="authentication">Authentication</h2><dl>${authentication}</dl>
${groups
  .map(
    ([name, tag, list]) =>
      `<section class="tag" id="${tagAnchor(name)}"><h2>${escapeHtml(name)}</h2>${render.markdown(tag.description)}${list
        .map((entry) => render.operation(entry, pageOf))
        .join('\n')}</section>`,
  )
  .join('\n')}
<section id="parameters"><h2>Shared parameters</h2>${render.parameterTable(sharedParameters)}</section>
<section id="headers"><h2>Headers</h2><dl>${headers}</dl></section>`;
}

/** The schemas page: every shared schema of the document, its fields and what they allow. */
export function schemasHtml(document: JsonSchema, slugs: ReadonlySet<string>): string {
  const render = new ReferenceRenderer(document, slugs);
  const components = isSchema(document.components) ? document.components : {};
  return `<h1>Schemas</h1><p>The objects the <a href="/docs/reference">API reference</a> names, each with its fields.</p>${entries(
    components.schemas,
  )
    .map(([name, schema]) => render.schemaSection(name, schema))
    .join('\n')}`;
}
