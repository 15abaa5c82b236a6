import { Chart, registerables } from 'chart.js';
import { mgmt, type Schemas, unwrap } from './api.js';
import { counted } from './counted.js';
import { code, credits, escapeHtml, table, when } from './html.js';
import type { Render } from './page.js';

Chart.register(...registerables);

const SETTLED = ['succeeded', 'failed', 'expired', 'canceled'] as const;
const STATUS_COLOURS: Record<string, string> = {
  succeeded: '#2b9348',
  failed: '#d62828',
  expired: '#f77f00',
  canceled: '#8d99ae',
  queued: '#4895ef',
  processing: '#7209b7',
};
const PALETTE = [
  '#2e86de',
  '#e4572e',
  '#1b998b',
  '#f0a202',
  '#9b5de5',
  '#f15bb5',
  '#00a6a6',
  '#7cb518',
  '#577590',
  '#bc4749',
];

/** The last 30 days (UTC), oldest first: the chart's x axis, days without usage included. */
function lastDays(count: number): string[] {
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  return Array.from({ length: count }, (_, i) =>
    new Date(today - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

/** Overview: both balances, credits spent per day by endpoint, jobs by status, recent failures. */
export const overview: Render = async (app) => {
  const [org, usage, failed, expired, queued, processing] = await Promise.all([
    unwrap(mgmt.GET('/mgmt/v1/organization')),
    unwrap(mgmt.GET('/mgmt/v1/usage')),
    unwrap(mgmt.GET('/mgmt/v1/jobs', { params: { query: { status: 'failed', limit: 8, top_level: 'true' } } })),
    unwrap(mgmt.GET('/mgmt/v1/jobs', { params: { query: { status: 'expired', limit: 8, top_level: 'true' } } })),
    unwrap(mgmt.GET('/mgmt/v1/jobs', { params: { query: { status: 'queued', limit: 100 } } })),
    unwrap(mgmt.GET('/mgmt/v1/jobs', { params: { query: { status: 'processing', limit: 100 } } })),
  ]);
  const rows = usage.data;
  const spent = (livemode: boolean) =>
    rows.filter((row) => row.livemode === livemode).reduce((sum, row) => sum + row.credits_charged, 0);
  const mode = new URLSearchParams(location.search).get('mode') ?? (spent(true) > 0 ? 'live' : 'test');
  const failures = [...failed.data, ...expired.data].sort((a, b) => b.created - a.created).slice(0, 8);
  const counts: Record<string, number> = Object.fromEntries(
    SETTLED.map((status) => [status, rows.reduce((sum, row) => sum + row[status], 0)]),
  );
  counts.queued = queued.data.length;
  counts.processing = processing.data.length;
  app.innerHTML = `<h1>${escapeHtml(org.name)}</h1>
  <div class="cards">
    <div class="card"><div class="label">Live balance</div><div class="value" id="balance-live">${credits(org.balance.live)}</div><a href="/dashboard/billing" data-link>Buy credits</a></div>
    <div class="card"><div class="label">Test balance</div><div class="value" id="balance-test">${credits(org.balance.test)}</div><span class="muted">simulated, free</span></div>
    <div class="card"><div class="label">Plan</div><div class="value" id="plan">${escapeHtml(org.plan)}</div><span class="muted">billing country ${escapeHtml(org.billing_country)}</span></div>
    <div class="card"><div class="label">Organisation</div><div class="value small" id="org-id">${escapeHtml(org.id)}</div><span class="muted">files kept ${escapeHtml(org.storage_retention_days)} days</span></div>
  </div>
  <section class="panel">
    <div class="panel-head"><h2>Credits spent per day, by endpoint</h2>
      <div class="segmented" role="group" aria-label="mode">${['test', 'live'].map((m) => `<a href="/dashboard?mode=${m}" data-link class="${m === mode ? 'active' : ''}" id="spend-${m}">${m}</a>`).join('')}</div></div>
    <div class="chart-box"><canvas id="spend-chart" aria-label="credits spent per day by endpoint"></canvas></div>
    <p class="muted">Last 30 days (UTC), ${mode} mode: <span id="spend-total">${credits(spent(mode === 'live'))}</span> in all.</p>
  </section>
  <div class="two">
    <section class="panel"><h2>Jobs by status</h2><div class="chart-box small"><canvas id="status-chart" aria-label="jobs by status"></canvas></div>
      <ul class="legend" id="status-counts">${Object.entries(counts)
        .map(
          ([status, count]) =>
            `<li><span class="swatch status-${status}"></span>${escapeHtml(status)} <strong data-status="${status}">${count}${status === 'queued' || status === 'processing' ? (count === 100 ? '+' : '') : ''}</strong></li>`,
        )
        .join('')}</ul>
      <p class="muted small">Settled jobs of the last 30 days; queued and processing now.</p></section>
    <section class="panel"><h2>Recent failures</h2><div id="failures">${table(
      ['job', 'endpoint', 'error', 'when'],
      failures.map((job: Schemas['Job']) => [
        `<a href="/dashboard/jobs/${job.id}" data-link>${code(job.id)}</a>`,
        escapeHtml(job.endpoint),
        job.error
          ? `<a class="error-code" href="/docs/errors/${encodeURIComponent(job.error.code)}">${escapeHtml(job.error.code)}</a> <span class="muted">${escapeHtml(job.error.message)}</span>`
          : '—',
        when(job.created),
      ]),
    )}</div></section>
  </div>`;
  const days = lastDays(30);
  const modeRows = rows.filter((row) => row.livemode === (mode === 'live'));
  const endpoints = [...new Set(modeRows.filter((row) => row.credits_charged > 0).map((row) => row.endpoint))].sort();
  new Chart(app.querySelector<HTMLCanvasElement>('#spend-chart')!, {
    type: 'bar',
    data: {
      labels: days.map((day) => day.slice(5)),
      datasets: endpoints.map((endpoint, i) => ({
        label: endpoint,
        backgroundColor: PALETTE[i % PALETTE.length]!,
        data: days.map((day) =>
          modeRows
            .filter((row) => row.date === day && row.endpoint === endpoint)
            .reduce((sum, row) => sum + row.credits_charged, 0),
        ),
      })),
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      plugins: {
        legend: { position: 'bottom', labels: { boxWidth: 12 } },
        tooltip: {
          callbacks: {
            label: (item) =>
              `${item.dataset.label}: ${counted(item.parsed.y ?? 0, 'credit')} ($${((item.parsed.y ?? 0) / 100).toFixed(2)})`,
          },
        },
      },
      scales: {
        x: { stacked: true },
        y: { stacked: true, beginAtZero: true, title: { display: true, text: 'credits' } },
      },
    },
  });
  const statuses = Object.keys(counts);
  new Chart(app.querySelector<HTMLCanvasElement>('#status-chart')!, {
    type: 'doughnut',
    data: {
      labels: statuses,
      datasets: [{ data: statuses.map((s) => counts[s]!), backgroundColor: statuses.map((s) => STATUS_COLOURS[s]!) }],
    },
    options: { animation: false, maintainAspectRatio: false, plugins: { legend: { display: false } } },
  });
};
