import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A test file that starts processes of its own (npm start, a runtime, a browser, a synth, a CLI) is among the long ones. */
const STARTS_PROCESSES =
  /\b(?:npmStart|npmRun|runChaos|startRuntime|spawn|spawnSync|execFile|chromium\.launch|launchChromium)\(/;

/**
 * Longest first, whatever the project, so that on a machine with few cores no long file starts last
 * and runs alone at the end: by the duration of the file's last run where vitest's cache has one,
 * else (a first run; CI after `npm ci`) the files that start processes of their own first, larger
 * files before smaller ones. A file that failed last time still runs first, as vitest's own order has it.
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rank = (file: TestSpecification): number[] => {
      const key = `${file.project.name}:${relative(root, file.moduleId)}`;
      const last = this.ctx.cache.getFileTestResults(key);
      if (last) return [last.failed ? 0 : 1, 1, 0, -last.duration];
      const text = readFileSync(file.moduleId, 'utf8');
      return [1, 0, STARTS_PROCESSES.test(text) ? 0 : 1, -text.length];
    };
    const ranks = new Map(files.map((file) => [file, rank(file)]));
    const order = (a: TestSpecification, b: TestSpecification): number => {
      const [x, y] = [ranks.get(a)!, ranks.get(b)!];
      return x.reduce((found, value, i) => found || value - y[i]!, 0);
    };
    return [...files].sort(order);
  }
}
