import { PRICES } from '../../lambdas/domain/money/billing-prices.js';
import { CREDIT_VALUE_USD_CENTS } from '../../lambdas/domain/money/credit-value.js';
import { mgmt, unwrap } from './api.js';
import { counted } from './counted.js';
import { credits, escapeHtml, formatUsd, formValues, on } from './html.js';
import type { Render } from './page.js';

/** What a price buys, in words: credits, what is paid, and the saving against the list price of a credit. */
function offer(price: (typeof PRICES)[keyof typeof PRICES]): string {
  const list = price.credits * CREDIT_VALUE_USD_CENTS;
  const saving = list > price.unitAmount ? Math.round((1 - price.unitAmount / list) * 100) : 0;
  const perCredit = `$${(price.unitAmount / price.credits / 100).toFixed(4).replace(/0+$/, '').replace(/\.$/, '')} a credit`;
  return `<article class="offer" data-price="${price.id}">
    <h3>${escapeHtml(price.kind === 'subscription' ? 'Pro plan' : counted(price.credits, 'credit'))}</h3>
    <div class="amount">${escapeHtml(formatUsd(price.unitAmount))}${price.interval ? ' <span class="per">a month</span>' : ''}</div>
    <ul>
      <li>${price.credits.toLocaleString('en-US')} live credits${price.interval ? ' every month' : ''} (worth ${escapeHtml(formatUsd(list))} at $0.01 each)</li>
      <li>${escapeHtml(perCredit)}${saving ? ` · <strong>${saving}% off</strong>` : ''}</li>
      ${price.plan ? `<li>moves the organisation to the <strong>${escapeHtml(price.plan)}</strong> plan (higher rate limits)</li>` : '<li>one payment, credits never expire</li>'}
    </ul>
    <button type="button" class="buy" data-price="${price.id}">${price.interval ? 'Subscribe' : 'Buy'}</button>
  </article>`;
}

/** Balances, what each price buys (checkout), the billing portal, free test credits. */
export const billing: Render = async (app) => {
  const org = await unwrap(mgmt.GET('/mgmt/v1/organization'));
  app.innerHTML = `<h1>Billing</h1>
  <div class="cards">
    <div class="card"><div class="label">Plan</div><div class="value">${escapeHtml(org.plan)}</div></div>
    <div class="card"><div class="label">Live balance</div><div class="value">${credits(org.balance.live)}</div></div>
    <div class="card"><div class="label">Test balance</div><div class="value" id="test-balance" data-credits="${org.balance.test}">${credits(org.balance.test)}</div></div>
  </div>
  <p class="muted">Prices are in credits: one credit is worth one US cent at list price. An endpoint's price is its credits per image, second or request (<a href="/dashboard/playground" data-link>see them in the playground</a>); purchased credits go to the live balance.</p>
  <h2>Buy credits or a plan</h2>
  <div class="offers">${Object.values(PRICES).map(offer).join('')}</div>
  <div id="billing-link"></div>
  <h2>Payment methods and invoices</h2><form id="portal"><button>Open the billing portal</button></form>
  <h2>Test credits</h2><form id="test-credits" class="inline"><label>Credits <input name="amount" type="number" min="1" value="1000"></label><button>Add test credits</button> <span class="muted">free, test balance only</span></form>`;
  const link = (label: string, url: string) => {
    app.querySelector('#billing-link')!.innerHTML =
      `<p class="panel"><a id="provider-link" href="${escapeHtml(url)}">${escapeHtml(label)} →</a></p>`;
  };
  on(app, 'button.buy', 'click', async (button) => {
    const session = await unwrap(
      mgmt.POST('/mgmt/v1/billing/checkout', { body: { price: button.dataset.price as keyof typeof PRICES } }),
    );
    link(`Continue to checkout (${PRICES[session.price].name})`, session.url);
  });
  on(app, '#portal', 'submit', async (_form, event) => {
    event.preventDefault();
    const session = await unwrap(mgmt.POST('/mgmt/v1/billing/portal', { body: {} }));
    link('Continue to the billing portal', session.url);
  });
  on(app, '#test-credits', 'submit', async (form, event) => {
    event.preventDefault();
    await unwrap(
      mgmt.POST('/mgmt/v1/billing/test-credits', {
        body: { amount: Number(formValues(form as HTMLFormElement).amount) },
      }),
    );
    await billing(app, {});
  });
};
