/**
 * What the repository's code, tests, guides and documentation pages never say: the names of the
 * working notes the service was built from ("the spec", "the contract", their files) and an
 * implementer's "*chosen*". They cite `docs/` pages instead. (This file is the one place that
 * names them, so the scan skips it.)
 */
export const STANDS_ALONE_FILE = 'test/support/stands-alone.ts';

export const FORBIDDEN_CITATIONS: ReadonlyArray<{ pattern: RegExp; why: string }> = [
  { pattern: /\bCONTRACT\b/, why: 'cites the working notes; cite a docs/ page' },
  { pattern: /interface-spec|shared\/(spec|CONTRACT|DESIGN|notes)/, why: 'names a file outside the repository' },
  {
    pattern: /\bthe spec\b|\bspec's\b|\bspec says\b|\(spec\b|\binterface spec(ification)?\b/i,
    why: 'cites "the spec"; cite a docs/ page',
  },
  { pattern: /(?<![\w.-])\/work\/|\/shared\/[\w-]+\.md/, why: 'names a file outside the repository' },
  {
    pattern: /\bthe contract('s)?\b|\bcontract year\b|\bcontract fields\b/i,
    why: 'cites the working notes as "the contract"; cite a docs/ page',
  },
  { pattern: /\*chosen\b|<em>chosen\b/i, why: "an implementer's note" },
];

/** The citations a text makes, one line each. */
export function forbiddenCitations(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const { pattern, why } of FORBIDDEN_CITATIONS)
      if (pattern.test(line)) found.push(`${i + 1}: ${why}: ${line.trim().slice(0, 120)}`);
  });
  return found;
}
