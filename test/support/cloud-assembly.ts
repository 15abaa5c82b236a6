import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Template } from '../../local/assembly/cloud-assembly.js';

/**
 * A cloud assembly on disk as `cdk synth` writes one (manifest, asset manifest, templates,
 * staged asset directories), for tests of the assembly runtime that need no synth.
 */
export function writeCloudAssembly(
  stacks: { main: Template; nested?: Record<string, Template> },
  region = 'us-east-1',
  assets: readonly string[] = [],
): { directory: string; remove(): void } {
  const directory = mkdtempSync(join(tmpdir(), 'ais-assembly-'));
  const write = (name: string, value: unknown) => writeFileSync(join(directory, name), JSON.stringify(value));
  write('manifest.json', {
    version: '55.0.0',
    artifacts: {
      'Shop.assets': { type: 'cdk:asset-manifest', properties: { file: 'Shop.assets.json' } },
      Shop: {
        type: 'aws:cloudformation:stack',
        environment: `aws://unknown-account/${region}`,
        properties: { templateFile: 'Shop.template.json' },
      },
    },
  });
  write('Shop.assets.json', {
    files: Object.fromEntries(
      assets.map((hash) => [
        hash,
        { source: { path: `asset.${hash}`, packaging: 'zip' }, destinations: { d: { objectKey: `${hash}.zip` } } },
      ]),
    ),
  });
  for (const hash of assets) mkdirSync(join(directory, `asset.${hash}`));
  write('Shop.template.json', stacks.main);
  for (const [file, template] of Object.entries(stacks.nested ?? {})) write(file, template);
  return { directory, remove: () => rmSync(directory, { recursive: true, force: true }) };
}
