import { ENDPOINT_SLUGS, JOB_STATUSES, mgmt, type Schemas, unwrap } from './api.js';
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

/** An inspection's eight stages as a row of chips, each opening its child job. */
export function stageChips(stages: Schemas['JobStage'][]): string {
  return `<ol class="stage-chips">${stages
    .map(
      (stage) =>
        `<li class="chip status-${escapeHtml(stage.skipped ? 'skipped' : stage.status)}">${stage.job_id ? `<a href="/dashboard/jobs/${stage.job_id}" data-link>` : '<span>'}${stage.stage}. ${escapeHtml(stage.name.replaceAll('_', ' '))}${stage.job_id ? '</a>' : '</span>'}</li>`,
    )
    .join('')}</ol>`;
}

/**
 * The job history of both modes. Inspections fold their stage jobs: the list asks for top-level
 * jobs only and each inspection opens its eight stages in place; "stage jobs" lists them too.
 */
export const jobs: Render = async (app) => {
  const query = new URLSearchParams(location.search);
  const status = query.get('status') as Schemas['JobStatus'] | null;
  const endpoint = query.get('endpoint');
  const livemode = query.get('livemode');
  const withStages = query.get('stage_jobs') === 'show';
  const batch = query.get('batch');
  const page = await unwrap(
    mgmt.GET('/mgmt/v1/jobs', {
      params: {
        query: {
          ...pageOf(query, 50),
          ...(status ? { status } : {}),
          ...(endpoint && (ENDPOINT_SLUGS as readonly string[]).includes(endpoint)
            ? { endpoint: endpoint as Schemas['EndpointSlug'] }
            : {}),
          ...(livemode ? { livemode: livemode as 'true' | 'false' } : {}),
          ...(withStages ? {} : { top_level: 'true' }),
          ...(batch ? { batch } : {}),
        } as never,
      },
    }),
  );
  const rows: string[][] = [];
  const classes: string[] = [];
  for (const job of page.data) {
    const stages = job.stages ?? [];
    rows.push([
      `<a href="/dashboard/jobs/${job.id}" data-link>${code(job.id)}</a>`,
      `${escapeHtml(job.endpoint)}${stages.length ? ` <button type="button" class="link expand" data-id="${job.id}" aria-expanded="false">${stages.filter((s) => s.status === 'succeeded').length}/${stages.length} stages ▸</button>` : ''}`,
      statusBadge(job.status),
      modeBadge(job.livemode),
      when(job.created),
      credits(job.credits.charged),
    ]);
    classes.push('');
    if (stages.length) {
      rows.push([`<div class="stages-row">${stageChips(stages)}</div>`]);
      classes.push(`stages hidden stages-of-${job.id}`);
    }
  }
  app.innerHTML = `<h1>Jobs</h1>
  <form id="filters" class="filters">
    <label>Status <select name="status"><option value="">any</option>${JOB_STATUSES.map((s) => `<option ${status === s ? 'selected' : ''}>${s}</option>`).join('')}</select></label>
    <label>Endpoint <select name="endpoint"><option value="">any</option>${ENDPOINT_SLUGS.map((s) => `<option ${endpoint === s ? 'selected' : ''}>${s}</option>`).join('')}</select></label>
    <label>Mode <select name="livemode"><option value="">both</option><option value="true" ${livemode === 'true' ? 'selected' : ''}>live</option><option value="false" ${livemode === 'false' ? 'selected' : ''}>test</option></select></label>
    <label class="check"><input type="checkbox" name="stage_jobs" value="show" ${withStages ? 'checked' : ''}> show inspection stage jobs</label>
    <label>Batch <input name="batch" value="${escapeHtml(batch ?? '')}" placeholder="bat_…" pattern="bat_[1-9A-HJ-NP-Za-km-z]+" size="28"></label>
    <button>Filter</button></form>
  ${table(['job', 'endpoint', 'status', 'mode', 'created', 'charged'], rows, { id: 'jobs-table', rowClass: (i) => classes[i] ?? '' })}
  ${pager('/dashboard/jobs', query, page)}`;
  on(app, '#filters', 'submit', async (form, event) => {
    event.preventDefault();
    const values = Object.entries(formValues(form as HTMLFormElement)).filter(([, v]) => v !== '');
    history.pushState(null, '', `/dashboard/jobs?${new URLSearchParams(values)}`);
    await jobs(app, {});
  });
  on(app, 'button.expand', 'click', (button) => {
    const row = app.querySelector(`tr.stages-of-${button.dataset.id}`)!;
    const open = row.classList.toggle('hidden') === false;
    button.setAttribute('aria-expanded', String(open));
    button.textContent = button.textContent!.replace(open ? '▸' : '▾', open ? '▾' : '▸');
  });
};
