import type { Page } from 'playwright-core';
import { type Portal, readVerificationLink } from './portal.js';
import { STRONG_PASSWORD, uniqueEmail } from '../../support/test-server.js';

/** A public page to visit: its name for artifacts and how to reach it (some need a fresh token). */
export interface PublicPage {
  name: string;
  /** Path and query to open; called for every visit (a confirmation link works once). */
  url(portal: Portal): Promise<string>;
  /** Resolves once the page's own content (not the 'Loading...' placeholder) is on screen. */
  ready(page: Page): Promise<unknown>;
}

/** A registration made through the API, whose confirmation link has not been opened yet. */
async function freshVerificationLink(portal: Portal): Promise<string> {
  const email = uniqueEmail('verify');
  const response = await portal.server.app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    headers: { 'x-api-key': 'dap-web-public' },
    payload: { email, password: STRONG_PASSWORD },
  });
  if (response.statusCode !== 202)
    throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  await portal.server.app.mailOutbox.drain();
  return readVerificationLink(portal.server.outboxDir, email);
}

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name }).first().waitFor();

/** The screens open without a sign-in, and the two screens opened from mail links. */
export const PUBLIC_PAGES: readonly PublicPage[] = [
  {
    name: 'landing',
    url: async () => '/landing',
    ready: (page) => page.getByRole('heading', { level: 1 }).first().waitFor(),
  },
  { name: 'login', url: async () => '/login', ready: (page) => heading(page, 'Sign in') },
  { name: 'register', url: async () => '/register', ready: (page) => heading(page, 'Create your account') },
  {
    name: 'forgot-password',
    url: async () => '/forgot-password',
    ready: (page) => heading(page, 'Reset your password'),
  },
  {
    name: 'reset-password',
    // The form shows for any well-formed token; the server judges it only on submit.
    url: async () => `/reset-password?token=${'r'.repeat(43)}`,
    ready: (page) => heading(page, 'Choose a new password'),
  },
  {
    name: 'verify-registration',
    url: freshVerificationLink,
    ready: (page) => heading(page, 'E-mail confirmed'),
  },
];

/** Opens a public page and waits for its content, the lazy chunk and the network settled. */
export async function openPublicPage(portal: Portal, page: Page, target: PublicPage): Promise<void> {
  await page.goto(await target.url(portal));
  await target.ready(page);
  // A page rendered ahead of time shows its content before its code has run, and the dot grid
  // joins once it is hydrated (public-layout.tsx): on a busy machine after the network is quiet.
  await page.locator('canvas').first().waitFor({ state: 'attached' });
  await page.waitForLoadState('networkidle');
}

/** The colour scheme the UI kit applied (`data-mantine-color-scheme` on <html>). */
export const appliedColorScheme = (page: Page) =>
  page.evaluate<string | null>('document.documentElement.getAttribute("data-mantine-color-scheme")');
