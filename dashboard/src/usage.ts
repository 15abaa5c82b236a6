import { Chart, registerables } from 'chart.js';
import { mgmt, unwrap } from './api.js';
import { credits, escapeHtml, modeBadge, table } from './html.js';
import type { Render } from './page.js';

Chart.register(...registerables);

/** Requests per day stacked by endpoint, and every counter of the usage rows. */
export const usage: Render = async (app) => {
  const rows = (await unwrap(mgmt.GET('/mgmt/v1/usage'))).data;
  app.innerHTML = `<h1>Usage</h1><div class="chart-box"><canvas id="usage-chart" aria-label="requests per day by endpoint"></canvas></div>
  ${table(
    [
      'date (UTC)',
      'endpoint',
      'mode',
      'requests',
      'succeeded',
      'failed',
      'expired',
      'canceled',
      'billable units',
      'credits charged',
    ],
    rows.map((row) => [
      row.date,
      escapeHtml(row.endpoint),
      modeBadge(row.livemode),
      String(row.requests),
      String(row.succeeded),
      String(row.failed),
      String(row.expired),
      String(row.canceled),
      String(row.billable_units),
      credits(row.credits_charged),
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
        data: dates.map((date) =>
          rows
            .filter((row) => row.date === date && row.endpoint === endpoint)
            .reduce((sum, row) => sum + row.requests, 0),
        ),
      })),
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      plugins: { legend: { position: 'bottom', labels: { boxWidth: 12 } } },
      scales: { x: { stacked: true }, y: { stacked: true, title: { display: true, text: 'requests per day' } } },
    },
  });
};
