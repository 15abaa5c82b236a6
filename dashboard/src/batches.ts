import { AisError, mgmt, type Schemas, unwrap } from './api.js';
import {
  code,
  credits,
  escapeHtml,
  formValues,
  modeBadge,
  on,
  pageOf,
  pager,
  statusBadge,
  table,
  when,
} from './html.js';
import type { Render } from './page.js';

const figure = (n: number) => n.toLocaleString('en-US');
const linesOf = (n: number) => `${figure(n)} line${n === 1 ? '' : 's'}`;

/** Settled lines of the total while the batch runs; once it has ended, what became of its lines instead of a full bar. */
function progress(batch: Schemas['Batch']): string {
  const { total, succeeded, failed, canceled } = batch.counts;
  const settled = succeeded + failed + canceled;
  if (batch.status === 'validating' || batch.status === 'running')
    return `<progress max="${total}" value="${settled}" aria-label="${settled} of ${total} lines settled"></progress> ${figure(settled)}/${figure(total)}`;
  return `<span class="outcome">${figure(succeeded)}/${figure(total)} succeeded</span>`;
}

/**
 * The status, and for a batch that ended `succeeded` with failed lines (its status stays `succeeded`:
 * every line ended, docs/internals/batches.md) how many failed, so a partial batch never reads as a clean one.
 */
function statusOf(batch: Schemas['Batch']): string {
  const { failed } = batch.counts;
  if (batch.status !== 'succeeded' || failed === 0) return statusBadge(batch.status);
  return `${statusBadge(batch.status)}<span class="partial">, ${linesOf(failed)} failed</span>`;
}

function countsOf(batch: Schemas['Batch']): string {
  const { queued, processing, succeeded, failed, canceled } = batch.counts;
  return `<span class="counts">${queued} queued · ${processing} processing · ${succeeded} succeeded · ${failed} failed · ${canceled} canceled</span>`;
}

/**
 * Batches (docs/internals/batches.md), both modes: progress, counts, credits, the output file once written,
 * the batch's jobs (the jobs list filtered by batch), and cancel on a batch still running, after a
 * confirmation.
 */
export const batches: Render = async (app) => {
  const query = new URLSearchParams(location.search);
  const livemode = query.get('livemode');
  const page = await unwrap(
    mgmt.GET('/mgmt/v1/batches', {
      params: {
        query: { ...pageOf(query, 50), ...(livemode ? { livemode: livemode as 'true' | 'false' } : {}) } as never,
      },
    }),
  );
  const rows = page.data.map((batch) => [
    code(batch.id),
    escapeHtml(batch.endpoint),
    statusOf(batch),
    modeBadge(batch.livemode),
    `${progress(batch)}<br>${countsOf(batch)}`,
    credits(batch.credits.charged),
    when(batch.created),
    [
      `<a href="/dashboard/jobs?batch=${batch.id}&stage_jobs=show" data-link>jobs</a>`,
      batch.output_file
        ? `<a href="${escapeHtml(batch.output_file.url)}" target="_blank" rel="noopener" class="output">output file</a>`
        : '',
      batch.status === 'validating' || batch.status === 'running'
        ? `<button type="button" class="danger cancel" data-id="${batch.id}">Cancel</button>`
        : '',
    ]
      .filter(Boolean)
      .join(' · '),
  ]);
  app.innerHTML = `<h1>Batches</h1>
  <p class="muted">A batch runs one endpoint over a JSONL file of calls, each line its own job (<a href="/docs/guides/batches">docs</a>). Create one with <code>POST /v1/batches</code>.</p>
  <form id="filters" class="filters">
    <label>Mode <select name="livemode"><option value="">both</option><option value="true" ${livemode === 'true' ? 'selected' : ''}>live</option><option value="false" ${livemode === 'false' ? 'selected' : ''}>test</option></select></label>
    <button>Filter</button></form>
  <div id="batch-outcome"></div>
  ${table(['batch', 'endpoint', 'status', 'mode', 'progress', 'charged', 'created', ''], rows, { id: 'batches-table' })}
  ${pager('/dashboard/batches', query, page)}`;
  on(app, '#filters', 'submit', async (form, event) => {
    event.preventDefault();
    const values = Object.entries(formValues(form as HTMLFormElement)).filter(([, v]) => v !== '');
    history.pushState(null, '', `/dashboard/batches?${new URLSearchParams(values)}`);
    await batches(app, {});
  });
  on(app, 'button.cancel', 'click', async (button) => {
    const id = button.dataset.id!;
    if (!confirm(`Cancel ${id}? No further line is admitted and its queued jobs are canceled and released.`)) return;
    try {
      await unwrap(mgmt.POST('/mgmt/v1/batches/{id}/cancel', { params: { path: { id } } }));
      await batches(app, {});
      app.querySelector('#batch-outcome')!.innerHTML = `<p id="batch-canceled">Canceled ${escapeHtml(id)}.</p>`;
    } catch (error) {
      if (error instanceof AisError && error.status === 401) throw error;
      app.querySelector('#batch-outcome')!.innerHTML =
        `<div class="error">${escapeHtml(error instanceof AisError ? error.message : String(error))}</div>`;
    }
  });
};
