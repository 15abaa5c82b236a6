import { Chart, registerables } from 'chart.js';
import { mgmt } from './api.js';
import { escapeHtml, table, when } from './html.js';

Chart.register(...registerables);

export type Render = (app: HTMLElement, params: Record<string, string>) => Promise<void>;

const FAMILIES = ['A', 'B', 'C', 'D', 'E', 'inspections'];
const EVENT_TYPES = ['job.succeeded', 'job.failed', 'inspection.stage_completed'];

function on(app: HTMLElement, selector: string, event: string, handler: (target: HTMLElement, event: Event) => void | Promise<void>): void {
  for (const element of app.querySelectorAll<HTMLElement>(selector)) element.addEventListener(event, (e) => void handler(element, e));
}

function formValues(form: HTMLFormElement): Record<string, string> {
  return Object.fromEntries([...new FormData(form).entries()].map(([k, v]) => [k, String(v)]));
}

function showSecret(app: HTMLElement, label: string, secret: string): void {
  const box = app.querySelector<HTMLElement>('#secret')!;
  box.innerHTML = `<div class="secret"><strong>${escapeHtml(label)}</strong> (shown once: copy it now)<br><code id="secret-value">${escapeHtml(secret)}</code> <button id="copy-secret">Copy</button></div>`;
  box.querySelector('#copy-secret')!.addEventListener('click', () => void navigator.clipboard?.writeText(secret).catch(() => undefined));
}

/** The list call's page size and cursor, from the address bar (`limit`, `starting_after`). */
function pageOf(query: URLSearchParams, defaultLimit: number): URLSearchParams {
  const page = new URLSearchParams({ limit: query.get('limit') ?? String(defaultLimit) });
  const cursor = query.get('starting_after');
  if (cursor) page.set('starting_after', cursor);
  return page;
}

/** "Older →" to the next page while the list has more, "← Newest" back to its first page. */
function pager(path: string, query: URLSearchParams, page: { data: Array<{ id: string }>; has_more: boolean }): string {
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

export const overview: Render = async (app) => {
  const org = await mgmt('GET', '/organization');
  app.innerHTML = `<h1>${escapeHtml(org.name)}</h1>
  <div class="cards">
    <div class="card"><div class="muted">Organisation</div><div class="value" id="org-id">${escapeHtml(org.id)}</div></div>
    <div class="card"><div class="muted">Plan</div><div class="value" id="plan">${escapeHtml(org.plan)}</div></div>
    <div class="card"><div class="muted">Live balance</div><div class="value" id="balance-live">${escapeHtml(org.balance.live)}</div><div class="muted">credits</div></div>
    <div class="card"><div class="muted">Test balance</div><div class="value" id="balance-test">${escapeHtml(org.balance.test)}</div><div class="muted">credits</div></div>
  </div>`;
};

export const apiKeys: Render = async (app) => {
  const keys = (await mgmt('GET', '/api-keys')).data as any[];
  app.innerHTML = `<h1>API keys</h1>
  <form id="create-key"><input name="name" placeholder="name" required>
    <label><input type="checkbox" name="livemode"> live</label>
    ${FAMILIES.map((family) => `<label><input type="checkbox" name="scope" value="${family}" checked> ${family}</label>`).join('')}
    <button>Create key</button></form>
  <div id="secret"></div>
  ${table(
    ['name', 'prefix', 'mode', 'scopes', 'created', 'last used', 'state', ''],
    keys.map((key) => [
      escapeHtml(key.name),
      `<code>${escapeHtml(key.prefix)}</code>`,
      key.livemode ? 'live' : 'test',
      escapeHtml(key.scopes.join(', ')),
      when(key.created),
      when(key.last_used_at),
      key.revoked_at ? 'revoked' : key.expires_at ? `expires ${when(key.expires_at)}` : 'active',
      key.revoked_at
        ? ''
        : `<button class="rotate" data-id="${key.id}">Rotate</button> <input class="grace" data-id="${key.id}" type="number" min="0" max="604800" value="3600" title="grace seconds"> <button class="revoke" data-id="${key.id}">Revoke</button>`,
    ]),
  )}`;
  on(app, '#create-key', 'submit', async (form, event) => {
    event.preventDefault();
    const data = new FormData(form as HTMLFormElement);
    const created = await mgmt('POST', '/api-keys', { name: String(data.get('name')), livemode: data.get('livemode') === 'on', scopes: data.getAll('scope').map(String) });
    await apiKeys(app, {});
    showSecret(app, `New key ${created.name}`, created.secret);
  });
  on(app, '.revoke', 'click', async (button) => {
    // irreversible, and the key fails on its very next request
    if (!confirm(`Revoke ${button.dataset.id}? Requests with it fail at once; this cannot be undone.`)) return;
    await mgmt('POST', `/api-keys/${button.dataset.id}/revoke`);
    await apiKeys(app, {});
  });
  on(app, '.rotate', 'click', async (button) => {
    const grace = Number(app.querySelector<HTMLInputElement>(`.grace[data-id="${button.dataset.id}"]`)!.value);
    const rotated = await mgmt('POST', `/api-keys/${button.dataset.id}/rotate`, { grace_seconds: grace });
    await apiKeys(app, {});
    showSecret(app, `Rotated key ${rotated.name}`, rotated.secret);
  });
};

export const jobs: Render = async (app) => {
  const query = new URLSearchParams(location.search);
  const filters = new URLSearchParams();
  for (const name of ['status', 'endpoint', 'livemode']) if (query.get(name)) filters.set(name, query.get(name)!);
  const page = await mgmt('GET', `/jobs?${pageOf(query, 50)}&${filters}`);
  app.innerHTML = `<h1>Jobs</h1>
  <form id="filters">
    <select name="status"><option value="">any status</option>${['queued', 'processing', 'succeeded', 'failed', 'expired', 'canceled'].map((s) => `<option ${query.get('status') === s ? 'selected' : ''}>${s}</option>`).join('')}</select>
    <input name="endpoint" placeholder="endpoint, e.g. plate.read" value="${escapeHtml(query.get('endpoint') ?? '')}">
    <select name="livemode"><option value="">both modes</option><option value="true" ${query.get('livemode') === 'true' ? 'selected' : ''}>live</option><option value="false" ${query.get('livemode') === 'false' ? 'selected' : ''}>test</option></select>
    <button>Filter</button></form>
  ${table(
    ['job', 'endpoint', 'status', 'mode', 'created', 'charged'],
    (page.data as any[]).map((job) => [
      `<a href="/dashboard/jobs/${job.id}" data-link>${escapeHtml(job.id)}</a>`,
      escapeHtml(job.endpoint),
      escapeHtml(job.status),
      job.livemode ? 'live' : 'test',
      when(job.created),
      escapeHtml(job.credits.charged ?? '—'),
    ]),
  )}
  ${pager('/dashboard/jobs', query, page)}`;
  on(app, '#filters', 'submit', async (form, event) => {
    event.preventDefault();
    const values = Object.entries(formValues(form as HTMLFormElement)).filter(([, v]) => v !== '');
    history.pushState(null, '', `/dashboard/jobs?${new URLSearchParams(values)}`);
    await jobs(app, {});
  });
};

export const jobDetail: Render = async (app, params) => {
  const job = await mgmt('GET', `/jobs/${params.id}`);
  app.innerHTML = `<h1>Job <code>${escapeHtml(job.id)}</code></h1>
  <p><a href="/dashboard/jobs" data-link>← all jobs</a></p>
  ${table(
    ['endpoint', 'status', 'mode', 'created', 'started', 'completed', 'reserved', 'charged', 'API key'],
    [
      [
        escapeHtml(job.endpoint),
        `<span id="job-status">${escapeHtml(job.status)}</span>`,
        job.livemode ? 'live' : 'test',
        when(job.created),
        when(job.started_at),
        when(job.completed_at),
        escapeHtml(job.credits.reserved),
        escapeHtml(job.credits.charged ?? '—'),
        `<code>${escapeHtml(job.api_key.prefix ?? job.api_key.id)}</code>`,
      ],
    ],
  )}
  ${
    job.stages
      ? `<h2>Stages</h2>${table(
          ['#', 'stage', 'endpoint', 'status', 'job', 'completed'],
          job.stages.map((stage: any) => [
            String(stage.stage),
            escapeHtml(stage.name),
            escapeHtml(stage.endpoint),
            `${escapeHtml(stage.status)}${stage.skipped ? ' (skipped)' : ''}`,
            stage.job_id ? `<a href="/dashboard/jobs/${stage.job_id}" data-link>${escapeHtml(stage.job_id)}</a>` : '—',
            when(stage.completed_at),
          ]),
        )}`
      : ''
  }
  ${job.error ? `<h2>Error</h2><div class="error">${escapeHtml(job.error.code)}: ${escapeHtml(job.error.message)}</div>` : ''}
  <h2>Result</h2><pre>${escapeHtml(JSON.stringify(job.result, null, 2))}</pre>`;
};

export const usage: Render = async (app) => {
  const rows = (await mgmt('GET', '/usage')).data as any[];
  app.innerHTML = `<h1>Usage</h1><canvas id="usage-chart" height="110"></canvas>
  ${table(
    ['date (UTC)', 'endpoint', 'mode', 'requests', 'succeeded', 'failed', 'expired', 'canceled', 'billable units', 'credits charged'],
    rows.map((row) => [
      row.date,
      escapeHtml(row.endpoint),
      row.livemode ? 'live' : 'test',
      row.requests,
      row.succeeded,
      row.failed,
      row.expired,
      row.canceled,
      row.billable_units,
      row.credits_charged,
    ]),
  )}`;
  const dates = [...new Set(rows.map((row) => row.date))].sort();
  const endpoints = [...new Set(rows.map((row) => row.endpoint))];
  new Chart(app.querySelector<HTMLCanvasElement>('#usage-chart')!, {
    type: 'bar',
    data: {
      labels: dates,
      datasets: endpoints.map((endpoint) => ({
        label: endpoint,
        data: dates.map((date) => rows.filter((row) => row.date === date && row.endpoint === endpoint).reduce((sum, row) => sum + row.requests, 0)),
      })),
    },
    options: { animation: false, scales: { x: { stacked: true }, y: { stacked: true, title: { display: true, text: 'requests per day' } } } },
  });
};

export const ledger: Render = async (app) => {
  const query = new URLSearchParams(location.search);
  const page = await mgmt('GET', `/ledger?${pageOf(query, 100)}`);
  const entries = page.data as any[];
  app.innerHTML = `<h1>Ledger</h1><p class="muted">Append-only, newest first; each balance is the sum of its mode's entries.</p>
  ${table(
    ['entry', 'kind', 'amount', 'mode', 'job', 'created'],
    entries.map((entry) => [
      `<code>${escapeHtml(entry.id)}</code>`,
      escapeHtml(entry.kind),
      String(entry.amount),
      entry.livemode ? 'live' : 'test',
      entry.job_id ? `<a href="/dashboard/jobs/${entry.job_id}" data-link>${escapeHtml(entry.job_id)}</a>` : '—',
      when(entry.created),
    ]),
  )}
  ${pager('/dashboard/ledger', query, page)}`;
};

export const webhooks: Render = async (app) => {
  const endpoints = (await mgmt('GET', '/webhook-endpoints')).data as any[];
  const events = (await mgmt('GET', '/events?limit=20')).data as any[];
  app.innerHTML = `<h1>Webhooks</h1>
  <form id="create-endpoint"><input name="url" placeholder="https://example.com/hooks" size="40" required>
    ${EVENT_TYPES.map((type) => `<label><input type="checkbox" name="event" value="${type}" checked> ${type}</label>`).join('')}
    <button>Add endpoint</button></form>
  <div id="secret"></div><div id="test-result"></div>
  ${table(
    ['endpoint', 'url', 'events', 'created', ''],
    endpoints.map((endpoint) => [
      `<code>${escapeHtml(endpoint.id)}</code>`,
      escapeHtml(endpoint.url),
      escapeHtml(endpoint.enabled_events.join(', ')),
      when(endpoint.created),
      `<button class="test" data-id="${endpoint.id}">Send test event</button> <button class="deliveries" data-id="${endpoint.id}">Delivery log</button> <button class="delete" data-id="${endpoint.id}">Delete</button>`,
    ]),
  )}
  <div id="deliveries"></div>
  <h2>Recent events</h2>
  ${table(
    ['event', 'type', 'job', 'created', ''],
    events.map((event) => [
      `<code>${escapeHtml(event.id)}</code>`,
      escapeHtml(event.type),
      escapeHtml(event.data.job.id),
      when(event.created),
      `<button class="redeliver" data-id="${event.id}">Redeliver</button>`,
    ]),
  )}`;
  on(app, '#create-endpoint', 'submit', async (form, event) => {
    event.preventDefault();
    const data = new FormData(form as HTMLFormElement);
    const created = await mgmt('POST', '/webhook-endpoints', { url: String(data.get('url')), enabled_events: data.getAll('event').map(String) });
    await webhooks(app, {});
    showSecret(app, `Signing secret of ${created.id}`, created.secret);
  });
  on(app, '.test', 'click', async (button) => {
    const result = await mgmt('POST', `/webhook-endpoints/${button.dataset.id}/test`, {});
    app.querySelector('#test-result')!.innerHTML =
      `<p id="test-outcome">Test event ${escapeHtml(result.event.id)}: ${result.delivered ? 'delivered' : 'not delivered'} (status ${escapeHtml(result.status_code ?? 'none')}${result.error ? `, ${escapeHtml(result.error)}` : ''}, ${result.duration_ms} ms)</p>`;
  });
  on(app, '.deliveries', 'click', async (button) => {
    const page = await mgmt('GET', `/webhook-endpoints/${button.dataset.id}/deliveries?limit=50`);
    app.querySelector('#deliveries')!.innerHTML = `<h2>Delivery log of <code>${escapeHtml(button.dataset.id)}</code></h2>${table(
      ['delivery', 'event', 'type', 'status', 'attempt', 'status code', 'duration', 'error', 'next attempt'],
      (page.data as any[]).map((d) => [
        `<code>${escapeHtml(d.id)}</code>`,
        `<code>${escapeHtml(d.event_id)}</code>`,
        escapeHtml(d.event_type),
        `<span class="delivery-status">${escapeHtml(d.status)}</span>`,
        String(d.attempt),
        escapeHtml(d.status_code ?? '—'),
        `${escapeHtml(d.duration_ms ?? '—')} ms`,
        escapeHtml(d.error ?? ''),
        when(d.next_attempt_at),
      ]),
    )}`;
  });
  on(app, '.delete', 'click', async (button) => {
    if (!confirm(`Delete ${button.dataset.id}? Its pending deliveries are dropped.`)) return;
    await mgmt('DELETE', `/webhook-endpoints/${button.dataset.id}`);
    await webhooks(app, {});
  });
  on(app, '.redeliver', 'click', async (button) => {
    const result = await mgmt('POST', `/events/${button.dataset.id}/redeliver`, {});
    app.querySelector('#test-result')!.innerHTML = `<p id="redeliver-outcome">Redelivering ${escapeHtml(button.dataset.id)} to ${(result.data as any[]).length} endpoint(s)</p>`;
  });
};

export const billing: Render = async (app) => {
  const org = await mgmt('GET', '/organization');
  app.innerHTML = `<h1>Billing</h1><p>Plan <strong>${escapeHtml(org.plan)}</strong> · live balance <strong>${escapeHtml(org.balance.live)}</strong> · test balance <strong id="test-balance">${escapeHtml(org.balance.test)}</strong></p>
  <h2>Buy credits or a plan</h2><form id="checkout"><select name="price"><option>credits_5000</option><option>credits_25000</option><option>credits_100000</option><option>plan_pro_monthly</option></select><button>Checkout</button></form>
  <h2>Payment methods and invoices</h2><form id="portal"><button>Open the billing portal</button></form>
  <div id="billing-link"></div>
  <h2>Test credits</h2><form id="test-credits"><input name="amount" type="number" min="1" value="1000"><button>Add test credits</button></form>`;
  const link = (label: string, url: string) => {
    app.querySelector('#billing-link')!.innerHTML = `<p><a id="provider-link" href="${escapeHtml(url)}">${escapeHtml(label)}</a></p>`;
  };
  on(app, '#checkout', 'submit', async (form, event) => {
    event.preventDefault();
    const session = await mgmt('POST', '/billing/checkout', { price: formValues(form as HTMLFormElement).price });
    link('Continue to checkout', session.url);
  });
  on(app, '#portal', 'submit', async (_form, event) => {
    event.preventDefault();
    const session = await mgmt('POST', '/billing/portal', {});
    link('Continue to the billing portal', session.url);
  });
  on(app, '#test-credits', 'submit', async (form, event) => {
    event.preventDefault();
    await mgmt('POST', '/billing/test-credits', { amount: Number(formValues(form as HTMLFormElement).amount) });
    await billing(app, {});
  });
};
