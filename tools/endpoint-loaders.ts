import { writeFileSync } from 'node:fs';
import { ENDPOINT_SLUGS, type InferenceSlug } from '../lambdas/domain/catalogue/catalogue.js';

/**
 * The endpoint catalogue is the one slug table. Each inference endpoint's code sits in one module
 * per kind, named after its slug (`plate.read` → `plate-read.ts`): its parameter schema in
 * `lambdas/schemas/params/`, its result schema in `lambdas/schemas/results/`, its sandbox model in
 * `lambdas/sandbox/`. Each kind's `load.ts` imports them on first use, and a bundler must see every
 * path as written (a path built at run time is not bundled), so those three files are generated
 * from the catalogue here instead of restating the slugs by hand. `test/unit/contracts/endpoint-loaders.test.ts`
 * fails when one is stale: `WRITE_ENDPOINT_LOADERS=1 npx vitest run test/unit/contracts/endpoint-loaders.test.ts`.
 */

const INFERENCE_SLUGS = ENDPOINT_SLUGS.filter((slug): slug is InferenceSlug => slug !== 'inspections');

/** `plate.read` → `plate-read`: the file each kind's module of the endpoint has. */
export function moduleOf(slug: InferenceSlug): string {
  return slug.replace('.', '-');
}

/** `plate.read` → `PlateRead` */
function pascal(slug: InferenceSlug): string {
  return moduleOf(slug)
    .split('-')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

interface LoaderKind {
  /** the generated file, relative to the repository root */
  file: string;
  /** what the file says before the loaders: imports, types, the loaders' doc comment */
  head: string;
  /** the loaders' declaration, up to its opening brace */
  open: string;
  /** from the loaders' closing brace to the end of their statement */
  close: string;
  /** the export of the endpoint's module that the loader answers */
  exportOf(slug: InferenceSlug): string;
  /** what the file says after the loaders */
  tail: string;
}

const HEADER = '// Generated from the endpoint catalogue by tools/endpoint-loaders.ts. Do not edit.\n';

const KINDS: readonly LoaderKind[] = [
  {
    file: 'lambdas/schemas/params/load.ts',
    head: `import type * as z from 'zod/mini';
import type { InferenceSlug } from '../../domain/catalogue/catalogue.js';
import { loadOnce } from '../../domain/kernel/load-once.js';

/**
 * Endpoint parameters, without the input fields themselves (\`image\`, \`audio\`, \`video\`,
 * \`images\`, \`input_ref\`, \`input_refs\`), which the pipeline strips before validating.
 * Every object is strict: an unknown parameter is a 400, never silently ignored.
 */
export type ParamsSchema = z.ZodMiniObject<z.core.$ZodShape, z.core.$strict>;

/**
 * Each endpoint's schema module, loaded when first asked for. Every inference route is its own
 * Lambda on AWS, so a function builds only its own endpoint's schema instead of all 24 at start
 * (esbuild inlines these modules and runs each one on its first import).
 */
`,
    open: 'const LOADERS: Record<InferenceSlug, () => Promise<ParamsSchema>> = {',
    close: '};',
    exportOf: (slug) => `${pascal(slug)}Params`,
    tail: `
export const loadParamsSchema = loadOnce(LOADERS);

export const INFERENCE_PARAM_SLUGS = Object.keys(LOADERS) as InferenceSlug[];
`,
  },
  {
    file: 'lambdas/schemas/results/load.ts',
    head: `import type * as z from 'zod/mini';
import type { InferenceSlug } from '../../domain/catalogue/catalogue.js';
import { loadOnce } from '../../domain/kernel/load-once.js';

/**
 * Each endpoint's result schema, imported when first asked for: the completion callback checks
 * one live job's result at a time, so its Lambda need not build all 24 at start. Not widened to
 * \`ZodMiniType\`: \`InferenceResults\` (index.ts) reads each endpoint's result type from here.
 */
`,
    open: 'export const RESULT_SCHEMA_LOADERS = {',
    close: '} satisfies Record<InferenceSlug, () => Promise<z.ZodMiniType>>;',
    exportOf: (slug) => `${pascal(slug)}Result`,
    tail: `
export const loadResultSchema = loadOnce<InferenceSlug, z.ZodMiniType>(RESULT_SCHEMA_LOADERS);

export const RESULT_SLUGS = Object.keys(RESULT_SCHEMA_LOADERS) as InferenceSlug[];
`,
  },
  {
    file: 'lambdas/sandbox/load.ts',
    head: `import { loadOnce } from '../domain/kernel/load-once.js';
import type { InferenceSlug, SandboxModel } from './types.js';

/**
 * The test-mode backend: one deterministic sandbox model per inference endpoint, each loaded when first
 * run. A sandbox model module builds its endpoint's parameter and result schemas, so a worker starts
 * without building all 24 (esbuild inlines these modules and runs each on its first import).
 */
`,
    open: 'const LOADERS: Record<InferenceSlug, () => Promise<SandboxModel>> = {',
    close: '};',
    exportOf: (slug) => `${pascal(slug)[0]!.toLowerCase()}${pascal(slug).slice(1)}Model`,
    tail: `
export const loadSandboxModel = loadOnce(LOADERS);

export const SANDBOX_SLUGS = Object.keys(LOADERS) as InferenceSlug[];
`,
  },
];

function generated(kind: LoaderKind): string {
  const loaders = INFERENCE_SLUGS.map(
    (slug) => `  '${slug}': async () => (await import('./${moduleOf(slug)}.js')).${kind.exportOf(slug)},`,
  );
  return `${HEADER}${kind.head}${kind.open}\n${loaders.join('\n')}\n${kind.close}\n${kind.tail}`;
}

/** Every generated loader file: its path (relative to the repository root) and its contents. */
export function generatedEndpointLoaders(): Array<{ file: string; contents: string }> {
  return KINDS.map((kind) => ({ file: kind.file, contents: generated(kind) }));
}

export function writeEndpointLoaders(root: URL): void {
  for (const { file, contents } of generatedEndpointLoaders()) writeFileSync(new URL(file, root), contents);
}
