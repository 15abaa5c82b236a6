import { AisError, type DashboardJob, mgmt, type Schemas, unwrap } from './api.js';
import { counted } from './counted.js';
import { drawResult } from './draw.js';
import { code, credits, escapeHtml, jsonView, modeBadge, on, statusBadge, when } from './html.js';
import type { Render } from './page.js';

const seconds = (from: number | null, to: number | null) => (from && to ? `${to - from} s` : '—');

/** An inspection as the timeline of its eight stages, each opening its child job. */
function timeline(stages: Schemas['JobStage'][]): string {
  return `<ol class="timeline" id="timeline">${stages
    .map((stage) => {
      const state = stage.skipped ? 'skipped' : stage.status;
      return `<li class="step status-${escapeHtml(state)}" data-stage="${escapeHtml(stage.name)}">
        <div class="dot">${stage.stage}</div>
        <div class="step-body">
          <div class="step-title"><strong>${escapeHtml(stage.name.replaceAll('_', ' '))}</strong> ${statusBadge(state)}</div>
          <div class="muted">${escapeHtml(stage.endpoint)} · ${stage.completed_at ? `${seconds(stage.started_at, stage.completed_at)} · done ${when(stage.completed_at)}` : stage.started_at ? `started ${when(stage.started_at)}` : 'not started'}</div>
          ${stage.error ? `<div class="error small"><a href="/docs/errors/${encodeURIComponent(stage.error.code)}">${escapeHtml(stage.error.code)}</a>: ${escapeHtml(stage.error.message)}</div>` : ''}
          ${stage.job_id ? `<a class="open-stage" href="/dashboard/jobs/${stage.job_id}" data-link>open job ${code(stage.job_id)} →</a>` : ''}
        </div></li>`;
    })
    .join('')}</ol>`;
}

const SETTLED = new Set(['succeeded', 'failed', 'expired', 'canceled']);

/**
 * Redaction (docs/internals/data-retention.md): offered on a settled job, after a confirmation. A succeeded
 * job without a result was redacted already; a repeat on any other is harmless (0 files deleted).
 */
function redactionPanel(job: DashboardJob): string {
  if (!SETTLED.has(job.status)) return '';
  if (job.status === 'succeeded' && job.result === null)
    return '<div class="panel" id="redaction"><h2>Redacted</h2><p id="redacted">This job’s files were deleted and its result is gone for good.</p></div>';
  return `<div class="panel" id="redaction"><h2>Redact</h2>
    <p class="muted">Deletes this job’s input and output files from storage${job.stages ? ' (its stage jobs’ too)' : ''} and sets its result to null for good. Credits, the ledger and usage stay as they are. Owners and admins; it cannot be undone.</p>
    <button type="button" id="redact" class="danger">Redact this job</button><div id="redaction-outcome"></div></div>`;
}

/** One job: facts, the inspection timeline, the error, and the result drawn on its input (JSON one click away). */
export const jobDetail: Render = async (app, params) => {
  const id = params.id!;
  const [job, inputs] = await Promise.all([
    unwrap(mgmt.GET('/mgmt/v1/jobs/{id}', { params: { path: { id } } })) as Promise<DashboardJob>,
    unwrap(mgmt.GET('/mgmt/v1/jobs/{id}/inputs', { params: { path: { id } } })),
  ]);
  const facts: Array<[string, string]> = [
    ['status', `<span id="job-status">${escapeHtml(job.status)}</span>`],
    ['mode', modeBadge(job.livemode)],
    ['created', when(job.created)],
    ['started', when(job.started_at)],
    ['completed', when(job.completed_at)],
    ['took', seconds(job.started_at, job.completed_at)],
    ['reserved', credits(job.credits.reserved)],
    ['charged', `<span id="job-charged">${credits(job.credits.charged)}</span>`],
    ['API key', code(job.api_key.prefix ?? job.api_key.id)],
    ['model', escapeHtml(job.model_version ?? '—')],
    ...(job.test_scenario ? ([['test scenario', escapeHtml(job.test_scenario)]] as Array<[string, string]>) : []),
  ];
  app.innerHTML = `<p><a href="/dashboard/jobs" data-link>← all jobs</a></p>
  <h1 class="job-title">${escapeHtml(job.endpoint)} ${statusBadge(job.status)}</h1>
  <p>${code(job.id)}</p>
  <dl class="facts wide">${facts.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${v}</dd>`).join('')}</dl>
  ${job.stages ? `<h2>Stages</h2>${timeline(job.stages)}` : ''}
  ${job.error ? `<h2>Error</h2><div class="error" id="job-error"><a href="/docs/errors/${encodeURIComponent(job.error.code)}">${escapeHtml(job.error.code)}</a>: ${escapeHtml(job.error.message)}</div>` : ''}
  <h2>Result</h2>
  <div id="result">${job.result ? '<p class="muted">Drawing…</p>' : `<p class="muted">${job.status === 'succeeded' ? 'No result: it was redacted.' : `No result while the job is ${escapeHtml(job.status)}.`}</p>`}</div>
  ${jsonView(job, 'JSON of the job')}
  ${redactionPanel(job)}
  ${inputs.data.length ? `<h2>Inputs</h2><ul class="inputs">${inputs.data.map((input) => `<li>${escapeHtml(input.filename ?? `input ${input.index}`)} · ${escapeHtml(input.content_type)} · ${counted(input.size_bytes, 'byte')} · ${input.url ? `<a href="${escapeHtml(input.url)}" target="_blank" rel="noopener">open</a>` : '<span class="muted">not kept</span>'}</li>`).join('')}</ul>` : ''}`;
  on(app, '#redact', 'click', async () => {
    if (
      !confirm(
        `Redact ${job.id}? Its input and output files are deleted and its result is set to null for good. This cannot be undone.`,
      )
    )
      return;
    const outcome = app.querySelector<HTMLElement>('#redaction-outcome')!;
    try {
      const redaction = await unwrap(mgmt.POST('/mgmt/v1/jobs/{id}/redact', { params: { path: { id: job.id } } }));
      await jobDetail(app, params);
      app
        .querySelector('#redaction')!
        .insertAdjacentHTML(
          'beforeend',
          `<p id="redaction-done">Redacted ${escapeHtml(when(redaction.redacted_at))}: ${redaction.files_deleted.toLocaleString('en-US')} ${redaction.files_deleted === 1 ? 'file' : 'files'} deleted.</p>`,
        );
    } catch (error) {
      if (error instanceof AisError && error.status === 401) throw error;
      outcome.innerHTML = `<div class="error">${escapeHtml(error instanceof AisError ? error.message : String(error))}</div>`;
    }
  });
  if (job.result && job.endpoint !== 'inspections')
    await drawResult(app.querySelector<HTMLElement>('#result')!, job.endpoint, job.result, inputs.data);
  else if (job.result)
    app.querySelector('#result')!.innerHTML =
      '<p class="muted">Each stage draws its own result: open it from the timeline above.</p>';
};
