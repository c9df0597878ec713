import { useCallback, useSyncExternalStore } from 'react';
import type { Plan } from '../../../../shared/api/plans';
import { currencyOfCountry, priceFor } from '../../../../shared/currencies';
import { CURRENCY_STORAGE_KEY } from '../../../../shared/storage-keys';
import { useHydrated } from '../../lib/use-hydrated';

/*
 * The currency prices are shown and paid in (issue 34, item 7): the one the visitor chose in this
 * browser, else their billing country's once they saved billing details, else their browser's
 * region's (de-DE: euros; hi-IN: rupees; en-US: dollars). A plan not sold in it is shown in its
 * own currency. The page rendered at build time, and its hydration, show each plan's own price:
 * the visitor's comes one render later, so the hydrated page matches the HTML it was given.
 */

const listeners = new Set<() => void>();
/** A choice made while storage refused it: kept for this page's life. */
let memoryChoice: string | null = null;
const notify = () => listeners.forEach((listener) => listener());

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

function storedChoice(): string | null {
  try {
    return window.localStorage.getItem(CURRENCY_STORAGE_KEY);
  } catch {
    // Storage refused (a private window's quota, a policy): the choice lasts as long as the page.
    return null;
  }
}

/** The region of the browser's first language that names or implies one ("de" is Germany's). */
export function browserRegion(languages: readonly string[] = navigator.languages): string | null {
  for (const tag of languages) {
    try {
      // Most browsers' tags name the region ("en-US"); guessing it (`maximize`) loads Intl's
      // likely-subtags data, one of the landing page's longest steps after it has hydrated.
      const locale = new Intl.Locale(tag);
      const region = locale.region ?? locale.maximize().region;
      if (region) return region;
    } catch {
      // Not a language tag Intl knows: try the next.
    }
  }
  return null;
}

const noChoice = () => null;

/**
 * The currency to show prices in, and `choose` to pick another (kept in this browser). Null while
 * the page is rendered ahead of time or hydrated: each plan's own price then.
 */
export function useShownCurrency(billingCountry?: string | null): {
  currency: string | null;
  choose: (currency: string) => void;
} {
  const chosen = useSyncExternalStore(subscribe, storedChoice, noChoice);
  const hydrated = useHydrated();
  const choose = useCallback((currency: string) => {
    try {
      window.localStorage.setItem(CURRENCY_STORAGE_KEY, currency);
    } catch {
      // Kept only until the page is left (see storedChoice).
      memoryChoice = currency;
    }
    notify();
  }, []);
  if (!hydrated) return { currency: null, choose };
  const currency = chosen ?? memoryChoice ?? currencyOfCountry(billingCountry ?? browserRegion());
  return { currency, choose };
}

/** The plan at its price in `currency` when it is sold in it, else at its own. */
export function inCurrency(plan: Plan, currency: string | null): Plan {
  const price = priceFor(plan.prices, currency);
  return price ? { ...plan, price_minor: price.price_minor, currency: price.currency } : plan;
}

/** Every currency any of the plans is sold in, in the order they first appear (each plan's own first). */
export const currenciesOf = (plans: readonly Plan[]): string[] => [
  ...new Set(plans.flatMap((plan) => plan.prices.map((price) => price.currency))),
];
