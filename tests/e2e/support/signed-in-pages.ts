import type { BrowserContextOptions, Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  type AxeViolation,
  blockingViolations,
  colourRuleProblems,
  describeViolation,
  ensureAxe,
} from './axe.js';
import { controlContrastProblems } from './control-contrast.js';

/** What a signed-in screen's address may depend on (the seeded customer's license). */
export interface ScreenContext {
  licenseId: string;
}

/** A screen behind sign-in: its name for artifacts, its address and its h1. */
export interface SignedInScreen {
  name: string;
  path(context: ScreenContext): string;
  /** The page's one h1 (matched exactly), shown once its own chunk rendered. */
  heading: string;
}

/** The signed-in user's screens (issue 6, items 1–5). */
export const USER_SCREENS: readonly SignedInScreen[] = [
  { name: 'dashboard', path: () => '/dashboard', heading: 'Dashboard' },
  { name: 'licenses', path: () => '/licenses', heading: 'Licenses' },
  // The seeded customer's license is a Pro license.
  { name: 'license-detail', path: ({ licenseId }) => `/licenses/${licenseId}`, heading: 'Pro license' },
  // The seeded customer's Pro license meters AI chat.
  { name: 'usage', path: () => '/usage', heading: 'Usage' },
  { name: 'profile', path: () => '/profile', heading: 'Profile' },
  { name: 'purchase', path: () => '/purchase', heading: 'Purchase' },
  { name: 'subscriptions', path: () => '/subscriptions', heading: 'Subscriptions' },
  { name: 'billing', path: () => '/billing', heading: 'Billing' },
  { name: 'support', path: () => '/support', heading: 'Support' },
];

/** The admin console's screens (issue 6, items 6–11). */
export const ADMIN_SCREENS: readonly SignedInScreen[] = [
  { name: 'admin-overview', path: () => '/admin', heading: 'Overview' },
  { name: 'admin-users', path: () => '/admin/users', heading: 'Users' },
  { name: 'admin-licenses', path: () => '/admin/licenses', heading: 'Licenses' },
  { name: 'admin-payments', path: () => '/admin/payments', heading: 'Payments' },
  { name: 'admin-subscriptions', path: () => '/admin/subscriptions', heading: 'Subscriptions' },
  { name: 'admin-coupons', path: () => '/admin/coupons', heading: 'Coupons' },
  { name: 'admin-features', path: () => '/admin/features', heading: 'Features' },
  { name: 'admin-packages', path: () => '/admin/packages', heading: 'Packages' },
  { name: 'admin-security', path: () => '/admin/security', heading: 'Security events' },
  { name: 'admin-support-requests', path: () => '/admin/support-requests', heading: 'Support requests' },
];

export const DEVICES = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 800 } } },
  {
    name: 'phone',
    options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  },
] as const satisfies readonly { name: string; options: BrowserContextOptions }[];
export type Device = (typeof DEVICES)[number];

/** Counts the page's requests in flight, to wait for a screen's data after a client-side navigation. */
export function trackNetwork(page: Page): { settled(quietMs?: number, timeout?: number): Promise<void> } {
  const pending = new Set<unknown>();
  let lastChange = Date.now();
  const start = (request: unknown) => {
    pending.add(request);
    lastChange = Date.now();
  };
  const end = (request: unknown) => {
    pending.delete(request);
    lastChange = Date.now();
  };
  page.on('request', start);
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  return {
    async settled(quietMs = 300, timeout = 10_000) {
      const deadline = Date.now() + timeout;
      while (pending.size > 0 || Date.now() - lastChange < quietMs) {
        if (Date.now() > deadline)
          throw new Error(`${pending.size} requests still running after ${timeout} ms`);
        await new Promise((done) => setTimeout(done, 50));
      }
    },
  };
}

/** Skeletons (Mantine's, while visible) and regions marked busy: a screen still loading. */
const LOADING = '.mantine-Skeleton-root[data-visible], [aria-busy="true"]';

/**
 * Shows a screen in the running portal by a client-side navigation (as the navigation links do:
 * no reload, the session and loaded chunks stay), then waits for its own h1 (not the previous
 * screen's), the network to settle and no skeleton or busy region left.
 */
export async function showScreen(
  page: Page,
  network: ReturnType<typeof trackNetwork>,
  screen: SignedInScreen,
  context: ScreenContext,
  /** The h1 to wait for, when the screen is not in English: any h1 of the new screen. */
  heading: string | RegExp = screen.heading,
): Promise<void> {
  await page.evaluate(`document.querySelectorAll('h1').forEach((h) => h.setAttribute('data-e2e-left', ''))`);
  const path = JSON.stringify(screen.path(context));
  await page.evaluate(`history.pushState(null, '', ${path}); dispatchEvent(new PopStateEvent('popstate'))`);
  await page
    .getByRole('heading', { level: 1, name: heading, exact: typeof heading === 'string' })
    .and(page.locator(':not([data-e2e-left])'))
    .first()
    .waitFor();
  await network.settled();
  await expect
    .poll(() => page.locator(LOADING).count(), {
      timeout: 10_000,
      message: `${screen.name} still shows a skeleton or a busy region after the network settled`,
    })
    .toBe(0);
}

/**
 * The checks of issue 6's "Must show" on the screen the page shows now, in the colour scheme it
 * shows: no serious or critical axe-core violation (every rule in
 * light; in dark the colour rules, the only ones a scheme changes), in dark no text whose contrast
 * axe could not decide, and tinted controls at 3:1 against what is behind them. Returns the problems.
 */
export async function screenProblems(page: Page, label: string, scheme: 'light' | 'dark'): Promise<string[]> {
  await ensureAxe(page);
  const problems: string[] = [];
  const describe = (violation: AxeViolation) => `${label} ${scheme}: axe\n${describeViolation(violation)}`;
  if (scheme === 'light')
    problems.push(...(await blockingViolations(page, `${label} ${scheme}`)).map(describe));
  else {
    // In dark mode every text's contrast is decided, so the rule really judges the dark palette.
    const { blocking, undecided } = await colourRuleProblems(page, `${label} ${scheme}`);
    problems.push(...blocking.map(describe));
    problems.push(...undecided.map((node) => `${label} ${scheme}: contrast undecided ${node}`));
  }
  // Light buttons and the current navigation item: at least 3:1 against what is behind them.
  for (const problem of await controlContrastProblems(page))
    problems.push(`${label} ${scheme}: control contrast ${problem}`);
  return problems;
}

/** On a phone: the page is no wider than the screen (no horizontal scroll). Returns the problem, if any. */
export async function sidewaysScroll(page: Page, label: string): Promise<string | undefined> {
  const { scrollWidth, innerWidth } = await page.evaluate<{ scrollWidth: number; innerWidth: number }>(
    '({ scrollWidth: document.scrollingElement.scrollWidth, innerWidth: window.innerWidth })',
  );
  return scrollWidth > innerWidth
    ? `${label}: ${scrollWidth}px wide on a ${innerWidth}px phone (horizontal scroll)`
    : undefined;
}
