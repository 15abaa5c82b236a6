import type { Currency, PricingCountry } from '../schemas/results/vocabulary.js';

/** Reference market data for the pricing sandbox models; amounts are converted from EUR. */
export interface Market {
  currency: Currency;
  /** VAT or (average) sales tax */
  taxRate: number;
  /** average body-shop labour rate, EUR per hour */
  labourRateEur: number;
  /** used-car price level relative to Germany */
  priceLevel: number;
}

export const MARKETS: Readonly<Record<PricingCountry, Market>> = {
  DE: { currency: 'eur', taxRate: 0.19, labourRateEur: 140, priceLevel: 1.0 },
  FR: { currency: 'eur', taxRate: 0.2, labourRateEur: 110, priceLevel: 0.97 },
  IT: { currency: 'eur', taxRate: 0.22, labourRateEur: 95, priceLevel: 0.98 },
  ES: { currency: 'eur', taxRate: 0.21, labourRateEur: 85, priceLevel: 0.95 },
  NL: { currency: 'eur', taxRate: 0.21, labourRateEur: 125, priceLevel: 1.03 },
  BE: { currency: 'eur', taxRate: 0.21, labourRateEur: 120, priceLevel: 1.0 },
  AT: { currency: 'eur', taxRate: 0.2, labourRateEur: 130, priceLevel: 1.02 },
  IE: { currency: 'eur', taxRate: 0.23, labourRateEur: 110, priceLevel: 1.1 },
  GB: { currency: 'gbp', taxRate: 0.2, labourRateEur: 115, priceLevel: 1.0 },
  CH: { currency: 'chf', taxRate: 0.081, labourRateEur: 180, priceLevel: 1.15 },
  SE: { currency: 'sek', taxRate: 0.25, labourRateEur: 135, priceLevel: 1.05 },
  NO: { currency: 'nok', taxRate: 0.25, labourRateEur: 160, priceLevel: 1.2 },
  DK: { currency: 'dkk', taxRate: 0.25, labourRateEur: 150, priceLevel: 1.25 },
  PL: { currency: 'pln', taxRate: 0.23, labourRateEur: 55, priceLevel: 0.85 },
  CZ: { currency: 'czk', taxRate: 0.21, labourRateEur: 50, priceLevel: 0.85 },
  US: { currency: 'usd', taxRate: 0.07, labourRateEur: 120, priceLevel: 0.95 },
  CA: { currency: 'cad', taxRate: 0.05, labourRateEur: 105, priceLevel: 1.0 },
  AU: { currency: 'aud', taxRate: 0.1, labourRateEur: 110, priceLevel: 1.1 },
};

/** Units of each currency per EUR (fixed reference rates, so sandbox models stay deterministic). */
export const PER_EUR: Readonly<Record<Currency, number>> = {
  eur: 1,
  gbp: 0.85,
  chf: 0.94,
  sek: 11.4,
  nok: 11.6,
  dkk: 7.46,
  pln: 4.3,
  czk: 25.2,
  usd: 1.08,
  cad: 1.48,
  aud: 1.65,
};

/** EUR (major units) to minor units of `currency`. */
export function eurToMinor(amountEur: number, currency: Currency): number {
  return Math.round(amountEur * PER_EUR[currency] * 100);
}

/** Rounds a minor amount to a "shop price" step, e.g. whole hundreds of currency units. */
export function roundMinor(amountMinor: number, stepMajor: number): number {
  const step = stepMajor * 100;
  return Math.round(amountMinor / step) * step;
}
