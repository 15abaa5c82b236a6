import { FAMILIES, FAMILY_DESCRIPTIONS, mgmt, type Schemas, unwrap } from './api.js';
import { counted } from './counted.js';
import { code, escapeHtml, modeBadge, on, showSecret, table, when } from './html.js';
import type { Render } from './page.js';

const GRACE_CHOICES: Array<[number, string]> = [
  [0, 'stops at once'],
  [3600, 'works 1 more hour'],
  [86_400, 'works 1 more day'],
  [604_800, 'works 7 more days'],
];
const LIFETIMES: Array<[string, string]> = [
  ['', 'never (until revoked)'],
  ['3600', 'after 1 hour'],
  ['86400', 'after 1 day'],
  ['604800', 'after 7 days'],
  ['2592000', 'after 30 days'],
];

const familyName = (family: string) =>
  family === 'inspections'
    ? 'Inspections'
    : `${family} · ${FAMILY_DESCRIPTIONS[family as Schemas['Family']] ?? family}`;

function state(key: { revoked_at: number | null; expires_at: number | null }): string {
  if (key.revoked_at) return '<span class="badge status-failed">revoked</span>';
  if (key.expires_at && key.expires_at * 1000 <= Date.now())
    return '<span class="badge status-canceled">expired</span>';
  if (key.expires_at)
    return `<span class="badge status-processing">expires</span> <span class="muted">${when(key.expires_at)}</span>`;
  return '<span class="badge status-succeeded">active</span>';
}

type Key = Schemas['ApiKey'];

/** What the key spent this UTC period, against its limit (docs/internals/spend-limits.md). */
function spend(key: Key): string {
  const limit = key.spend_limit;
  const used = `<span class="spent">${limit ? `${key.spent.credits.toLocaleString('en-US')} / ${counted(limit.credits, 'credit')} per UTC ${limit.period}` : `${counted(key.spent.credits, 'credit')} this UTC month, no limit`}</span>`;
  if (key.revoked_at) return used;
  const periods = (['day', 'month'] as const).map(
    (period) => `<option value="${period}" ${limit?.period === period ? 'selected' : ''}>per ${period}</option>`,
  );
  return `${used}<div class="spend-edit"><input type="number" class="spend-credits" data-id="${key.id}" min="0" step="1" placeholder="no limit" value="${limit?.credits ?? ''}" aria-label="spend limit in credits">
    <select class="spend-period" data-id="${key.id}" aria-label="spend limit period">${periods.join('')}</select>
    <button type="button" class="set-limit" data-id="${key.id}">Set limit</button></div>`;
}

/** API keys: create (scopes named by family, an optional lifetime and spend limit), rotate with a labelled grace period, revoke, edit the spend limit. */
export const apiKeys: Render = async (app) => {
  const keys = (await unwrap(mgmt.GET('/mgmt/v1/api-keys'))).data;
  app.innerHTML = `<h1>API keys</h1>
  <form id="create-key" class="panel">
    <h2>New key</h2>
    <label>Name <input name="name" placeholder="e.g. production server" required></label>
    <fieldset class="choices"><legend>Mode</legend>
      <label><input type="radio" name="mode" value="test" checked> test <span class="muted">(chk_test_…, sandbox results, test credits)</span></label>
      <label><input type="radio" name="mode" value="live"> live <span class="muted">(chk_live_…, real inference, live credits)</span></label></fieldset>
    <fieldset class="choices"><legend>Scopes: the endpoint families the key may call</legend>
      ${FAMILIES.map((family) => `<label><input type="checkbox" name="scope" value="${family}" checked> ${escapeHtml(familyName(family))}</label>`).join('')}</fieldset>
    <label>Stops working <select name="expires_in_seconds">${LIFETIMES.map(([value, label]) => `<option value="${value}">${escapeHtml(label)}</option>`).join('')}</select></label>
    <label>Spend limit <input type="number" name="spend_limit_credits" min="0" step="1" placeholder="no limit"> credits
      <select name="spend_limit_period" aria-label="spend limit period"><option value="day">per UTC day</option><option value="month">per UTC month</option></select></label>
    <button>Create key</button></form>
  <div id="secret"></div>
  ${table(
    ['name', 'prefix', 'mode', 'scopes', 'created', 'last used', 'state', 'spent / limit', 'rotate or revoke'],
    keys.map((key) => [
      escapeHtml(key.name),
      code(key.prefix),
      modeBadge(key.livemode),
      key.scopes.length === FAMILIES.length
        ? `<span title="${escapeHtml(FAMILIES.map(familyName).join(', '))}">all families (A–E, Inspections)</span>`
        : `<ul class="scopes">${key.scopes.map((scope) => `<li>${escapeHtml(familyName(scope))}</li>`).join('')}</ul>`,
      when(key.created),
      when(key.last_used_at),
      state(key),
      spend(key),
      key.revoked_at
        ? ''
        : `<div class="key-actions"><label>Grace period: the old secret <select class="grace" data-id="${key.id}" aria-label="grace period">${GRACE_CHOICES.map(([seconds, label]) => `<option value="${seconds}" ${seconds === 3600 ? 'selected' : ''}>${label}</option>`).join('')}</select></label>
           <button type="button" class="rotate" data-id="${key.id}">Rotate</button> <button type="button" class="revoke danger" data-id="${key.id}">Revoke</button></div>`,
    ]),
  )}`;
  on(app, '#create-key', 'submit', async (form, event) => {
    event.preventDefault();
    const data = new FormData(form as HTMLFormElement);
    const lifetime = String(data.get('expires_in_seconds') ?? '');
    const limit = String(data.get('spend_limit_credits') ?? '');
    const created = await unwrap(
      mgmt.POST('/mgmt/v1/api-keys', {
        body: {
          name: String(data.get('name')),
          livemode: data.get('mode') === 'live',
          scopes: data.getAll('scope').map(String) as Schemas['Family'][],
          ...(lifetime ? { expires_in_seconds: Number(lifetime) } : {}),
          ...(limit
            ? {
                spend_limit: {
                  credits: Number(limit),
                  period: data.get('spend_limit_period') === 'month' ? 'month' : 'day',
                },
              }
            : {}),
        },
      }),
    );
    await apiKeys(app, {});
    showSecret(app.querySelector<HTMLElement>('#secret')!, `New key ${created.name}`, created.secret);
  });
  on(app, '.revoke', 'click', async (button) => {
    // irreversible, and the key fails on its very next request
    if (!confirm(`Revoke ${button.dataset.id}? Requests with it fail at once; this cannot be undone.`)) return;
    await unwrap(mgmt.POST('/mgmt/v1/api-keys/{id}/revoke', { params: { path: { id: button.dataset.id! } } }));
    await apiKeys(app, {});
  });
  on(app, '.rotate', 'click', async (button) => {
    const grace = Number(app.querySelector<HTMLSelectElement>(`.grace[data-id="${button.dataset.id}"]`)!.value);
    const rotated = await unwrap(
      mgmt.POST('/mgmt/v1/api-keys/{id}/rotate', {
        params: { path: { id: button.dataset.id! } },
        body: { grace_seconds: grace },
      }),
    );
    await apiKeys(app, {});
    showSecret(app.querySelector<HTMLElement>('#secret')!, `Rotated key ${rotated.name}`, rotated.secret);
  });
  on(app, '.set-limit', 'click', async (button) => {
    const id = button.dataset.id!;
    const credits = app.querySelector<HTMLInputElement>(`.spend-credits[data-id="${id}"]`)!.value.trim();
    const period: 'day' | 'month' =
      app.querySelector<HTMLSelectElement>(`.spend-period[data-id="${id}"]`)!.value === 'month' ? 'month' : 'day';
    // an empty amount removes the limit
    const body = { spend_limit: credits === '' ? null : { credits: Number(credits), period } };
    await unwrap(mgmt.POST('/mgmt/v1/api-keys/{id}/spend-limit', { params: { path: { id } }, body }));
    await apiKeys(app, {});
  });
};
