import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * axe-core (WCAG 2 A and AA) over the page a browser tab shows. axe is injected by the test: the
 * pages' CSP allows no script of another origin, so the tab that runs it bypasses the policy
 * (`newPage({ bypassCSP: true })`) for axe alone.
 */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  nodes: Array<{ target: string[]; data?: unknown }>;
}

/** What axe finds on the tab's page, under the WCAG 2.0 and 2.1 A and AA rules. */
export async function axeViolations(tab: Page): Promise<Violation[]> {
  await tab.evaluate(AXE);
  return tab.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(options: unknown): Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      // what passed is not kept, only what failed: the same verdict, in a fraction of the time
      resultTypes: ['violations'],
    });
    return result.violations.map(({ id, impact, nodes }) => ({
      id,
      impact,
      nodes: nodes.slice(0, 3).map((node) => ({
        target: node.target as string[],
        data: (node as { any?: Array<{ data?: unknown }> }).any?.[0]?.data,
      })),
    }));
  });
}

/** One line per violation, naming the page, the rule and the first elements it failed on. */
export const axeSummary = (path: string, found: Violation[]) =>
  found.map(
    (violation) =>
      `${path}: ${violation.id} (${violation.nodes.map((n) => `${n.target.join(' ')} ${JSON.stringify(n.data ?? '')}`).join(', ')})`,
  );
