/**
 * Which currency a customer pays in (issue 34, item 7). A plan has its own price and may be sold
 * for prices in other currencies too; a customer sees and pays in their billing country's
 * currency when the plan is offered in it, else in the plan's own, and may choose among those
 * offered. Nothing is ever converted: each currency's price is one an administrator set.
 */

/** The euro area (2026, Bulgaria included) and the states that use the euro by agreement. */
const EURO_COUNTRIES: ReadonlySet<string> = new Set([
  ...['AT', 'BE', 'BG', 'CY', 'DE', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'IE', 'IT'],
  ...['LT', 'LU', 'LV', 'MT', 'NL', 'PT', 'SI', 'SK'],
  ...['AD', 'MC', 'ME', 'SM', 'VA', 'XK'],
]);

/** An ISO 4217 code as the API takes it: three capitals. */
export const CURRENCY_CODE = /^[A-Z]{3}$/;

/** The currency a customer in `country` (ISO 3166-1 alpha-2) pays in: rupees in India, euros in the euro area, else dollars. */
export function currencyOfCountry(country: string | null | undefined): string {
  const code = country?.toUpperCase();
  if (code === 'IN') return 'INR';
  if (code && EURO_COUNTRIES.has(code)) return 'EUR';
  return 'USD';
}

/** One price of a plan: what it costs in one currency's minor unit. */
export interface CurrencyPrice {
  currency: string;
  price_minor: number;
}

/**
 * The price a customer is shown and charged among a plan's `prices` (its own first): the one in
 * `wanted` (their choice, or their country's currency) when the plan is offered in it, else the
 * plan's own.
 */
export function priceFor<Price extends CurrencyPrice>(
  prices: readonly Price[],
  wanted: string | null | undefined,
): Price | undefined {
  return prices.find((price) => price.currency === wanted) ?? prices[0];
}
