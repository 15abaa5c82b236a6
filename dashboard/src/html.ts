import { formatCredits, formatUsd } from '../../lambdas/domain/money/credit-value.js';

export { formatUsd };

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Times as the API has them (UTC), said so: a dashboard read in another zone must not mislead. */
export function when(epochSeconds: number | null | undefined): string {
  return epochSeconds ? `${new Date(epochSeconds * 1000).toISOString().replace('T', ' ').slice(0, 19)} UTC` : '—';
}

/** `1,234 credits ($12.34)`: credits first, their money value beside them. */
export function credits(amount: number | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  const [count, money] = formatCredits(amount).split(' (');
  return `${escapeHtml(count)} <span class="money">(${escapeHtml(money)}</span>`;
}

/**
 * A table that stays readable on a phone: below 640 px each row becomes a card whose cells
 * carry their column's name (`data-label`, shown by the stylesheet).
 */
export function table(
  headers: string[],
  rows: string[][],
  options: { id?: string; rowClass?: (index: number) => string } = {},
): string {
  if (rows.length === 0) return '<p class="muted">Nothing yet.</p>';
  const head = headers.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows
    .map((row, i) => {
      // a row of one cell (a detail row under the one before) spans the table
      const cells =
        row.length === 1 && headers.length > 1
          ? `<td colspan="${headers.length}">${row[0]}</td>`
          : row.map((cell, c) => `<td data-label="${escapeHtml(headers[c] ?? '')}">${cell}</td>`).join('');
      return `<tr class="${options.rowClass?.(i) ?? ''}">${cells}</tr>`;
    })
    .join('');
  return `<table class="responsive"${options.id ? ` id="${options.id}"` : ''}><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

export function statusBadge(status: string): string {
  return `<span class="badge status-${escapeHtml(status)}">${escapeHtml(status)}</span>`;
}

export function modeBadge(livemode: boolean): string {
  return livemode ? '<span class="badge live">live</span>' : '<span class="badge test">test</span>';
}

/** A long identifier: shown whole, wrapping anywhere rather than pushing the page sideways. */
export function code(value: unknown): string {
  return `<code class="id">${escapeHtml(value)}</code>`;
}

export function on(
  root: ParentNode,
  selector: string,
  event: string,
  handler: (target: HTMLElement, event: Event) => void | Promise<void>,
): void {
  for (const element of root.querySelectorAll<HTMLElement>(selector))
    element.addEventListener(event, (e) => void handler(element, e));
}

export function formValues(form: HTMLFormElement): Record<string, string> {
  return Object.fromEntries([...new FormData(form).entries()].map(([k, v]) => [k, String(v)]));
}

/** A secret shown once, with a copy button. */
export function showSecret(host: HTMLElement, label: string, secret: string): void {
  host.innerHTML = `<div class="secret"><strong>${escapeHtml(label)}</strong> (shown once: copy it now)<br><code id="secret-value" class="id">${escapeHtml(secret)}</code> <button type="button" id="copy-secret">Copy</button></div>`;
  host
    .querySelector('#copy-secret')!
    .addEventListener('click', () => void navigator.clipboard?.writeText(secret).catch(() => undefined));
}

/** The list call's page size and cursor, from the address bar (`limit`, `starting_after`). */
export function pageOf(query: URLSearchParams, defaultLimit: number): { limit: number; starting_after?: string } {
  const cursor = query.get('starting_after');
  return { limit: Number(query.get('limit') ?? defaultLimit), ...(cursor ? { starting_after: cursor } : {}) };
}

/** "Older →" to the next page while the list has more, "← Newest" back to its first page. */
export function pager(
  path: string,
  query: URLSearchParams,
  page: { data: Array<{ id: string }>; has_more: boolean },
): string {
  const links: string[] = [];
  if (query.has('starting_after')) {
    const newest = new URLSearchParams(query);
    newest.delete('starting_after');
    links.push(`<a id="newest" href="${escapeHtml(`${path}?${newest}`)}" data-link>← Newest</a>`);
  }
  const last = page.data.at(-1);
  if (page.has_more && last) {
    const older = new URLSearchParams(query);
    older.set('starting_after', last.id);
    links.push(`<a id="older" href="${escapeHtml(`${path}?${older}`)}" data-link>Older →</a>`);
  }
  return links.length ? `<p class="pager">${links.join(' · ')}</p>` : '';
}

/** The JSON of a record, one click away, wrapping long URLs instead of overflowing. */
export function jsonView(value: unknown, summary = 'JSON'): string {
  return `<details class="json"><summary>${escapeHtml(summary)}</summary><pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre></details>`;
}
