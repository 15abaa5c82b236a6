import type { Metering } from '../catalogue/catalogue.js';

/**
 * What credits are worth, for people reading prices: one credit is one US cent at list price
 * (a 5,000-credit top-up is $50.00; larger top-ups are cheaper per credit). Prices, reservations,
 * charges and balances are all counted in credits; the money value is shown beside them.
 * No dependencies: the dashboard imports this module too.
 */
export const CREDIT_VALUE_USD_CENTS = 1;

const UNIT: Record<Metering, string> = {
  per_image: 'per image',
  per_second: 'per second',
  per_request: 'per request',
  per_inspection: 'per inspection',
};

/** `$0.02`, `$1,234.50`: an amount of US cents. */
export function formatUsd(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  return `${sign}$${(Math.abs(cents) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** `2 credits ($0.02)`, `1 credit ($0.01)`, `-1,200 credits (-$12.00)`. */
export function formatCredits(credits: number): string {
  return `${credits.toLocaleString('en-US')} ${Math.abs(credits) === 1 ? 'credit' : 'credits'} (${formatUsd(credits * CREDIT_VALUE_USD_CENTS)})`;
}

/** The catalogue's `price_display`: `2 credits ($0.02) per image`. */
export function priceDisplay(price: number, metering: Metering): string {
  return `${formatCredits(price)} ${UNIT[metering]}`;
}
