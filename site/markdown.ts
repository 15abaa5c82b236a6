import { Marked, type Tokens } from 'marked';
import { escapeHtml } from '../lambdas/http/html.js';

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The ids GitHub gives a page's headings: a repeat gets `-1`, `-2`… */
function headingIds(): (text: string) => string {
  const seen = new Map<string, number>();
  return (text) => {
    const base = anchorOf(text);
    const repeats = seen.get(base) ?? 0;
    seen.set(base, repeats + 1);
    return repeats === 0 ? base : `${base}-${repeats}`;
  };
}

/**
 * A guide's Markdown as HTML, its headings carrying the ids GitHub gives them, so links written
 * for the repository (`uploads.md#client-supplied-urls-ssrf`) land on their section here too;
 * a code span naming another guide (`docs/internals/uploads.md`) links to its page; a code block takes the
 * keyboard's focus (`tabindex="0"`), so it can be scrolled without a mouse.
 */
export function guideHtml(markdown: string, slugs: ReadonlySet<string>): string {
  const idOf = headingIds();
  const renderer = {
    heading(
      this: { parser: { parseInline(tokens: Tokens.Heading['tokens']): string } },
      heading: Tokens.Heading,
    ): string {
      return `<h${heading.depth} id="${escapeHtml(idOf(heading.text))}">${this.parser.parseInline(heading.tokens)}</h${heading.depth}>\n`;
    },
    // a code block scrolls sideways when a line is long: focusable, so a keyboard can scroll it too
    code(token: Tokens.Code): string {
      const language = token.lang ? ` class="language-${escapeHtml(token.lang)}"` : '';
      return `<pre tabindex="0"><code${language}>${escapeHtml(token.text)}</code></pre>\n`;
    },
    codespan(token: Tokens.Codespan): string {
      const code = `<code>${escapeHtml(token.text)}</code>`;
      const guide = /^docs\/([\w-]+)\.md$/.exec(token.text)?.[1];
      return guide && slugs.has(guide) ? `<a href="/docs/guides/${guide}">${code}</a>` : code;
    },
  };
  // a wide table scrolls sideways too (site.css), so it takes the focus as a code block does
  return new Marked({ renderer }).parse(markdown, { async: false }).replaceAll('<table>', '<table tabindex="0">');
}

/** One stretch of a guide for the search index: a heading and the text under it. */
export interface GuideSection {
  heading: string;
  /** the heading's id on the page ('' for the text before the first subheading) */
  anchor: string;
  text: string;
}

/** The guide cut at its headings, as plain text (code, tables and lists included, marks dropped). */
export function guideSections(markdown: string): GuideSection[] {
  const idOf = headingIds();
  const sections: GuideSection[] = [];
  let current: GuideSection = { heading: '', anchor: '', text: '' };
  for (const token of new Marked().lexer(markdown)) {
    if (token.type === 'heading') {
      const id = idOf(token.text);
      if (token.depth === 1) {
        current.heading = plain(token.text);
        continue;
      }
      sections.push(current);
      current = { heading: plain(token.text), anchor: id, text: '' };
      continue;
    }
    current.text += ` ${plain(token.raw)}`;
  }
  sections.push(current);
  return sections
    .filter((section) => section.heading || section.text.trim())
    .map((section) => ({ ...section, text: section.text.replace(/\s+/g, ' ').trim() }));
}

/** Markdown source as searchable text: marks, table rules and link targets dropped. */
function plain(markdown: string): string {
  return markdown
    .replace(/```[a-z]*\n?/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_|#>]/g, ' ')
    .replace(/-{3,}/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
