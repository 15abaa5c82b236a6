import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { functionName } from '../../../../lambdas/http/routes/define.js';
import { ROUTES } from '../../../../lambdas/http/routes/index.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The source files a module loads by its static imports alone (what importing it runs), from an esbuild split build. */
async function staticallyLoaded(entry: string): Promise<string[]> {
  const { metafile } = await build({
    entryPoints: [entry],
    absWorkingDir: ROOT,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    outdir: 'out',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs: Metafile['outputs'] = metafile.outputs;
  const entryOutput = Object.keys(outputs).find((name) => outputs[name]!.entryPoint === entry)!;
  const seen = new Set<string>();
  const inputs = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const input of Object.keys(outputs[name]!.inputs)) inputs.add(input);
    for (const imported of outputs[name]!.imports)
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(entryOutput);
  return [...inputs].sort();
}

describe('route modules', () => {
  it('importing every route definition loads no package but zod, and no composition root (clients, providers)', async () => {
    const loaded = await staticallyLoaded('lambdas/http/routes/index.ts');
    const packages = new Set(
      loaded
        .filter((file) => file.includes('node_modules/'))
        .map((file) => file.split('node_modules/')[1]!.split('/')[0]),
    );
    expect([...packages]).toEqual(['zod']);
    expect(loaded.filter((file) => file.startsWith('lambdas/composition/'))).toEqual([]);
    expect(loaded).not.toContain('lambdas/http/route-pipeline.ts');
  });

  it('every route names the module that states it: a file under lambdas/http/routes/, one name per module', () => {
    const modules = new Map<string, string>();
    for (const route of ROUTES) {
      const file = relative(ROOT, fileURLToPath(route.module));
      expect(file, route.id).toMatch(/^lambdas\/http\/routes\/[a-z-]+\/[a-z-]+\.ts$/);
      expect(existsSync(fileURLToPath(route.module)), file).toBe(true);
      const name = functionName(route);
      expect(modules.get(name) ?? file, `${name} names two modules`).toBe(file);
      modules.set(name, file);
    }
  });

  it('there is no handlers folder: a route and its handler are one module', () => {
    expect(existsSync(`${ROOT}${['lambdas', 'http', 'handlers'].join('/')}`)).toBe(false);
  });
});
