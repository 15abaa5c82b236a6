/**
 * What can be bought, and what it grants. Credits always come from this table (keyed by the
 * price id the checkout carried in its metadata), never from the amount the provider says
 * was paid. On Stripe, each id here is the `lookup_key` of the matching Stripe Price.
 */
export interface PriceDefinition {
  id: string;
  kind: 'top_up' | 'subscription';
  name: string;
  /** credits deposited into the live balance per payment (per billing period for subscriptions) */
  credits: number;
  /** the plan a subscription moves the organisation to; null for top-ups */
  plan: string | null;
  /** what the customer pays, in USD cents; shown on the local checkout page, never used to grant credits */
  unitAmount: number;
  interval: 'month' | null;
}

export const PRICES = {
  credits_5000: {
    id: 'credits_5000',
    kind: 'top_up',
    name: '5,000 credits',
    credits: 5_000,
    plan: null,
    unitAmount: 5_000,
    interval: null,
  },
  credits_25000: {
    id: 'credits_25000',
    kind: 'top_up',
    name: '25,000 credits',
    credits: 25_000,
    plan: null,
    unitAmount: 24_000,
    interval: null,
  },
  credits_100000: {
    id: 'credits_100000',
    kind: 'top_up',
    name: '100,000 credits',
    credits: 100_000,
    plan: null,
    unitAmount: 90_000,
    interval: null,
  },
  plan_pro_monthly: {
    id: 'plan_pro_monthly',
    kind: 'subscription',
    name: 'Pro plan (monthly, 50,000 credits a month)',
    credits: 50_000,
    plan: 'pro',
    unitAmount: 45_000,
    interval: 'month',
  },
} as const satisfies Record<string, PriceDefinition>;

export type PriceId = keyof typeof PRICES;
export const PRICE_IDS = Object.keys(PRICES) as [PriceId, ...PriceId[]];

/** The plan an organisation falls back to when its subscription ends. */
export const FALLBACK_PLAN = 'free';

export function priceById(id: string | null | undefined): PriceDefinition | null {
  return id && Object.hasOwn(PRICES, id) ? PRICES[id as PriceId] : null;
}
