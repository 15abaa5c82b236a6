import { mgmt, type Schemas, unwrap, WEBHOOK_EVENT_TYPES } from './api.js';
import { code, escapeHtml, modeBadge, on, showSecret, table, when } from './html.js';
import type { Render } from './page.js';

/** Endpoints (secret once), test events, the delivery log, recent events with redeliver. */
export const webhooks: Render = async (app) => {
  const [endpoints, events] = await Promise.all([
    unwrap(mgmt.GET('/mgmt/v1/webhook-endpoints')),
    unwrap(mgmt.GET('/mgmt/v1/events', { params: { query: { limit: 20 } } })),
  ]);
  app.innerHTML = `<h1>Webhooks</h1>
  <form id="create-endpoint" class="panel"><label>Destination URL <input name="url" type="url" placeholder="https://example.com/hooks" required></label>
    <fieldset class="choices"><legend>Mode: the events it receives</legend>
      <label><input type="radio" name="mode" value="test" checked> test <span class="muted">(jobs of chk_test_… keys)</span></label>
      <label><input type="radio" name="mode" value="live"> live <span class="muted">(jobs of chk_live_… keys)</span></label></fieldset>
    <fieldset class="choices"><legend>Events</legend>${WEBHOOK_EVENT_TYPES.map((type) => `<label><input type="checkbox" name="event" value="${type}" checked> ${type}</label>`).join('')}</fieldset>
    <button>Add endpoint</button></form>
  <div id="secret"></div><div id="test-result"></div>
  ${table(
    ['endpoint', 'mode', 'url', 'events', 'created', ''],
    endpoints.data.map((endpoint) => [
      code(endpoint.id),
      modeBadge(endpoint.livemode),
      `<span class="url">${escapeHtml(endpoint.url)}</span>`,
      escapeHtml(endpoint.enabled_events.join(', ')),
      when(endpoint.created),
      `<button type="button" class="test" data-id="${endpoint.id}">Send test event</button> <button type="button" class="deliveries" data-id="${endpoint.id}">Delivery log</button> <button type="button" class="delete danger" data-id="${endpoint.id}">Delete</button>`,
    ]),
  )}
  <div id="deliveries"></div>
  <h2>Recent events</h2>
  ${table(
    ['event', 'mode', 'type', 'job or batch', 'created', ''],
    events.data.map((event) => [
      code(event.id),
      modeBadge('job' in event.data ? event.data.job.livemode : event.data.batch.livemode),
      escapeHtml(event.type),
      'job' in event.data
        ? `<a href="/dashboard/jobs/${event.data.job.id}" data-link>${code(event.data.job.id)}</a>`
        : `<a href="/dashboard/batches" data-link>${code(event.data.batch.id)}</a>`,
      when(event.created),
      `<button type="button" class="redeliver" data-id="${event.id}">Redeliver</button>`,
    ]),
  )}`;
  on(app, '#create-endpoint', 'submit', async (form, event) => {
    event.preventDefault();
    const data = new FormData(form as HTMLFormElement);
    const created = await unwrap(
      mgmt.POST('/mgmt/v1/webhook-endpoints', {
        body: {
          url: String(data.get('url')),
          livemode: data.get('mode') === 'live',
          enabled_events: data.getAll('event').map(String) as Schemas['WebhookEventType'][],
        },
      }),
    );
    await webhooks(app, {});
    showSecret(app.querySelector<HTMLElement>('#secret')!, `Signing secret of ${created.id}`, created.secret);
  });
  on(app, '.test', 'click', async (button) => {
    const result = await unwrap(
      mgmt.POST('/mgmt/v1/webhook-endpoints/{id}/test', {
        params: { path: { id: button.dataset.id! } },
        body: { event_type: 'job.succeeded', endpoint: 'plate.read' },
      }),
    );
    app.querySelector('#test-result')!.innerHTML =
      `<p id="test-outcome" class="panel">Test event ${code(result.event.id)}: ${result.delivered ? 'delivered' : 'not delivered'} (status ${escapeHtml(result.status_code ?? 'none')}${result.error ? `, ${escapeHtml(result.error)}` : ''}, ${result.duration_ms} ms)</p>`;
  });
  on(app, '.deliveries', 'click', async (button) => {
    const page = await unwrap(
      mgmt.GET('/mgmt/v1/webhook-endpoints/{id}/deliveries', {
        params: { path: { id: button.dataset.id! }, query: { limit: 50 } },
      }),
    );
    app.querySelector('#deliveries')!.innerHTML = `<h2>Delivery log of ${code(button.dataset.id)}</h2>${table(
      ['delivery', 'event', 'type', 'status', 'attempt', 'status code', 'duration', 'error', 'next attempt'],
      page.data.map((d) => [
        code(d.id),
        code(d.event_id),
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
    await unwrap(mgmt.DELETE('/mgmt/v1/webhook-endpoints/{id}', { params: { path: { id: button.dataset.id! } } }));
    await webhooks(app, {});
  });
  on(app, '.redeliver', 'click', async (button) => {
    const result = await unwrap(
      mgmt.POST('/mgmt/v1/events/{id}/redeliver', { params: { path: { id: button.dataset.id! } }, body: {} }),
    );
    app.querySelector('#test-result')!.innerHTML =
      `<p id="redeliver-outcome" class="panel">Redelivering ${code(button.dataset.id)} to ${result.data.length} endpoint(s)</p>`;
  });
};
