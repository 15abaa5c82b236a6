import { mgmt, unwrap, type DashboardJob, type Schemas } from './api.js';
import { drawResult } from './draw.js';
import { code, credits, escapeHtml, jsonView, modeBadge, statusBadge, when } from './html.js';
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
  <div id="result">${job.result ? '<p class="muted">Drawing…</p>' : `<p class="muted">${job.status === 'succeeded' ? 'No result.' : `No result while the job is ${escapeHtml(job.status)}.`}</p>`}</div>
  ${jsonView(job, 'JSON of the job')}
  ${inputs.data.length ? `<h2>Inputs</h2><ul class="inputs">${inputs.data.map((input) => `<li>${escapeHtml(input.filename ?? `input ${input.index}`)} · ${escapeHtml(input.content_type)} · ${input.size_bytes.toLocaleString('en-US')} bytes · ${input.url ? `<a href="${escapeHtml(input.url)}" target="_blank" rel="noopener">open</a>` : '<span class="muted">not kept</span>'}</li>`).join('')}</ul>` : ''}`;
  if (job.result && job.endpoint !== 'inspections') await drawResult(app.querySelector<HTMLElement>('#result')!, job.endpoint, job.result, inputs.data);
  else if (job.result) app.querySelector('#result')!.innerHTML = '<p class="muted">Each stage draws its own result: open it from the timeline above.</p>';
};
