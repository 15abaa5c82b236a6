import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENDPOINT_SLUGS, type InferenceSlug } from '../../../lambdas/domain/catalogue/catalogue.js';
import { sampleSandboxRequest, sandboxModels } from '../../../lambdas/sandbox/index.js';
import { REPOSITORY_ROOT } from '../../support/repository-files.js';

const CONTENT_TYPES: Record<string, string> = { '.jpg': 'image/jpeg', '.wav': 'audio/wav', '.mp4': 'video/mp4' };

interface FixtureRow {
  sample: string;
  endpoints: InferenceSlug[];
  answer: string;
}

/** The rows of docs/test-fixtures.md's table: a sample, the endpoints it is sent to, what they answer. */
function fixtureRows(guide: string): FixtureRow[] {
  const table = guide.split('## The fixtures')[1]!.split('\n\n')[1]!;
  let sample = '';
  return table
    .split('\n')
    .slice(2)
    .map((line) => {
      const [input, endpoints, answer] = line.split(' | ').map((cell) => cell.replace(/^\| ?| ?\|$/g, ''));
      sample = /`([\w.-]+)`/.exec(input!)?.[1] ?? sample;
      const named = [...endpoints!.matchAll(/`([\w.*]+)`/g)].map((match) => match[1]!);
      const slugs = named.flatMap((name) =>
        name.endsWith('.*')
          ? ENDPOINT_SLUGS.filter((slug) => slug.startsWith(name.slice(0, -1)))
          : [name as InferenceSlug],
      );
      return { sample, endpoints: slugs as InferenceSlug[], answer: answer! };
    });
}

/** Everything the sample's result says, as text: the result, its files' sizes and what it bills. */
function answerText(slug: InferenceSlug, sample: string): string {
  const bytes = readFileSync(join(REPOSITORY_ROOT, 'samples', sample));
  const request = sampleSandboxRequest(slug);
  const output = sandboxModels[slug]({
    ...request,
    assets: [
      {
        index: 0,
        filename: sample,
        contentType: CONTENT_TYPES[extname(sample)]!,
        sizeBytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      },
    ],
  });
  const sizes = Object.values(output.files).map((file) => `${file.width}×${file.height}`);
  return JSON.stringify({ result: output.result, sizes, billed: output.billableUnits });
}

/** The literal values a row quotes: each code span's text, the numbers of a `{x: …}` box, and every number in its prose. */
function quotedValues(answer: string): string[] {
  const prose = answer.replace(/`[^`]+`/g, ' ');
  const proseNumbers = [...prose.matchAll(/\d+(\.\d+)?/g)].map((match) => match[0]);
  const spans = [...answer.matchAll(/`([^`]+)`/g)].flatMap(([, quoted]) => {
    if (quoted!.startsWith('{')) return [...quoted!.matchAll(/-?\d+(\.\d+)?/g)].map((match) => match[0]);
    // another sample, named for comparison
    if (/\.(jpg|wav|mp4)$/.test(quoted!)) return [];
    // a field and its value
    const pair = /^([a-z_]+): (.+)$/.exec(quoted!);
    if (pair) return [`"${pair[1]}":${pair[2]}`];
    // a field named by its path: its last name is a key of the result
    if (/^[a-z_]+(\.[a-z_]+)+$/.test(quoted!)) return [`"${quoted!.split('.').at(-1)}"`];
    return [quoted!];
  });
  return [...spans, ...proseNumbers];
}

describe('docs/test-fixtures.md', () => {
  const guide = readFileSync(join(REPOSITORY_ROOT, 'docs/test-fixtures.md'), 'utf8');
  const rows = fixtureRows(guide);

  it('lists a row for every sample it describes', () => {
    expect(new Set(rows.map((row) => row.sample))).toEqual(
      new Set(['car.jpg', 'damaged.jpg', 'tire.jpg', 'vin.jpg', 'registration.jpg', 'engine.wav', 'walkaround.mp4']),
    );
  });

  it.each(fixtureRows(readFileSync(join(REPOSITORY_ROOT, 'docs/test-fixtures.md'), 'utf8')))(
    'quotes what $sample answers on $endpoints',
    ({ sample, endpoints, answer }) => {
      const said = endpoints.map((slug) => answerText(slug, sample)).join('\n');
      const missing = quotedValues(answer).filter((value) => !said.includes(value));
      expect(missing).toEqual([]);
    },
  );
});
