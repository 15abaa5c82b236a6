import { mgmt, unwrap } from './api.js';
import { code, credits, escapeHtml, modeBadge, pageOf, pager, table, when } from './html.js';
import type { Render } from './page.js';

/** Ledger entries, newest first, with their credits' money value. */
export const ledger: Render = async (app) => {
  const query = new URLSearchParams(location.search);
  const page = await unwrap(mgmt.GET('/mgmt/v1/ledger', { params: { query: pageOf(query, 100) } }));
  app.innerHTML = `<h1>Ledger</h1><p class="muted">Append-only, newest first; each balance is the sum of its mode's entries.</p>
  ${table(
    ['entry', 'kind', 'amount', 'mode', 'job', 'created'],
    page.data.map((entry) => [
      code(entry.id),
      escapeHtml(entry.kind),
      `<span class="${entry.amount < 0 ? 'debit' : 'credit'}">${credits(entry.amount)}</span>`,
      modeBadge(entry.livemode),
      entry.job_id ? `<a href="/dashboard/jobs/${entry.job_id}" data-link>${code(entry.job_id)}</a>` : '—',
      when(entry.created),
    ]),
  )}
  ${pager('/dashboard/ledger', query, page)}`;
};
