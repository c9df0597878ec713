import { writeFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { STRONG_PASSWORD } from '../support/test-server.js';
import { blockingViolations, describeViolation, ensureAxe } from './support/axe.js';
import { compareWithBaseline, UPDATE_COMMAND, UPDATING } from './support/baseline.js';
import { appliedColorScheme, openPublicPage, PUBLIC_PAGES, type PublicPage } from './support/pages.js';
import {
  describePortal,
  type Portal,
  readVerificationLink,
  screenshotPath,
  signIn,
  watchPage,
} from './support/portal.js';
import {
  callApiOk,
  accessToken,
  type SeededCustomer,
  seedAdminLists,
  seedCustomer,
  seededRandom,
  seedSubscription,
} from './support/seed.js';
import type { Credentials, PortalServer } from './support/server.js';
import { LANGUAGE_STORAGE_KEY } from '../../src/shared/storage-keys.js';
import {
  ADMIN_SCREENS,
  type ScreenContext,
  screenProblems,
  showScreen,
  type SignedInScreen,
  sidewaysScroll,
  trackNetwork,
  USER_SCREENS,
} from './support/signed-in-pages.js';

/**
 * Issue 16, "Must show": every screen (public, customer, admin) on a desktop (1280x800) and a phone
 * (390x844), light and dark, compared with the committed pictures in tests/e2e/baselines/ (see
 * support/baseline.ts for the tolerance), so a change that breaks a layout fails here. After a
 * change meant to alter screens: `npm run test:screens:update`, then look at and commit the pictures.
 *
 * The pictures only repeat if everything on screen does: the server's clock is frozen at a fixed
 * instant (moved a minute on at each step that writes, so lists keep one order), the browser's
 * clock shows the same instant, every seeded name, key and id is fixed, and motion is off.
 *
 * Issue 6, "Must show", is checked in the same visit, so each screen is drawn once per device and
 * scheme: every screen photographed whole (test-results/screenshots/<screen>-<device>-<scheme>.png),
 * no horizontal scroll on a phone, no serious or critical axe-core violation (the public pages on
 * the desktop, every rule in light and dark; the signed-in screens on both devices, with no text of
 * undecided contrast in dark and every tinted control at 3:1, see screenProblems).
 */

/** The moment the seeding starts, in the server and in the browser. */
const SEEDED_AT = Date.parse('2030-03-14T09:30:00.000Z');
const MINUTE_MS = 60_000;

const DEVICES = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 800 } } },
  {
    name: 'phone',
    // Scale 1: the phone's layout at a quarter of the bytes of a retina picture.
    options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 },
  },
] as const;
type Device = (typeof DEVICES)[number];
const SCHEMES = ['light', 'dark'] as const;
type Scheme = (typeof SCHEMES)[number];

/** What is checked on a screen besides its picture, in each scheme: the problems found. */
type SchemeChecks = (page: Page, label: string, scheme: Scheme) => Promise<string[]>;

/** A public page: no serious or critical axe-core violation, every rule, in light and in dark. */
const publicPageChecks: SchemeChecks = async (page, label, scheme) => {
  await ensureAxe(page);
  return (await blockingViolations(page, `${label} ${scheme}`)).map(
    (violation) => `${label} ${scheme}: axe\n${describeViolation(violation)}`,
  );
};
const noChecks: SchemeChecks = async () => [];

const ADMIN_EMAIL = 'ada.admin@example.com';
const CUSTOMER_EMAIL = 'casey.customer@example.com';

/** The customer's license keys, oldest first (the bought one, the subscription's). */
const CUSTOMER_KEYS = ['K7Q2M-9XW4R-T3HVN-6BPJD-2CFZ8', 'M4TXV-8R2KQ-W9HCN-3JBPD-7FZ6G'];

/** Ids the server or the browser makes at random (a user's, this browser's): a fixed grey box in the pictures. */
const RANDOM_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One minute on in the server's frozen clock: each write of a step gets a time of its own. */
const tick = (server: PortalServer) => server.clock.advance(MINUTE_MS);

/** The server's random parts of what the customer's screens show, replaced with fixed ones. */
async function fixCustomerValues(server: PortalServer, customer: SeededCustomer): Promise<void> {
  const { db } = server.app;
  const licenses = await db
    .selectFrom('licenses')
    .select('id')
    .where('user_id', '=', customer.id)
    .orderBy('created_at')
    .execute();
  for (const [index, license] of licenses.entries())
    await db
      .updateTable('licenses')
      .set({ license_key: CUSTOMER_KEYS[index % CUSTOMER_KEYS.length] })
      .where('id', '=', license.id)
      .execute();
  await db
    .updateTable('activations')
    .set({ hardware_id: 'hw-workstation-5f3a9c21d07e' })
    .where('license_id', '=', customer.licenseId)
    .execute();
  const payments = await db
    .selectFrom('payments')
    .select('id')
    .where('user_id', '=', customer.id)
    .orderBy('created_at')
    .execute();
  for (const [index, payment] of payments.entries())
    await db
      .updateTable('payments')
      .set({
        provider_order_id: `order_demo_${String(index + 1).padStart(4, '0')}`,
        provider_payment_id: `pay_demo_${String(index + 1).padStart(4, '0')}`,
      })
      .where('id', '=', payment.id)
      .execute();
  const subscriptions = await db
    .selectFrom('subscriptions')
    .select('id')
    .where('user_id', '=', customer.id)
    .execute();
  for (const [index, subscription] of subscriptions.entries())
    await db
      .updateTable('subscriptions')
      .set({ provider_subscription_id: `sub_demo_${String(index + 1).padStart(4, '0')}` })
      .where('id', '=', subscription.id)
      .execute();
  // The catalogue the migrations wrote is dated when the test database was made.
  const catalogued = new Date(SEEDED_AT - 30 * 24 * 60 * MINUTE_MS).toISOString();
  for (const table of ['features', 'plans'] as const)
    await db
      .updateTable(table)
      .set({ created_at: catalogued, updated_at: catalogued })
      .where('created_at', '<', new Date(SEEDED_AT - 7 * 24 * 60 * MINUTE_MS).toISOString())
      .execute();
}

/** The confirmation page, opened from the mail of a registration with a fixed address per device. */
const confirmationPage = (device: Device): PublicPage => {
  const page = PUBLIC_PAGES.find((candidate) => candidate.name === 'verify-registration')!;
  return {
    ...page,
    async url(portal) {
      const email = `new.person.${device.name}@example.com`;
      tick(portal.server);
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
    },
  };
};

/** A browser context as a person on `device` has it, its clock fixed at the server's frozen now. */
async function deviceContext(portal: Portal, device: Device): Promise<BrowserContext> {
  const context = await portal.newContext({
    ...device.options,
    colorScheme: 'light',
    reducedMotion: 'reduce',
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  await context.clock.setFixedTime(portal.server.clock.now());
  return context;
}

/**
 * Photographs what the page shows in light and dark and compares each with its baseline; in each
 * scheme also keeps a picture of the whole page and runs `checks`; on a phone, looks for a
 * horizontal scroll.
 */
async function photograph(
  page: Page,
  name: string,
  device: Device,
  problems: string[],
  checks: SchemeChecks,
  schemes: readonly Scheme[] = SCHEMES,
): Promise<void> {
  const label = `${name} (${device.name})`;
  // Off the content: no row or button is hovered in the picture or for axe.
  await page.mouse.move(0, 0);
  await page.evaluate('document.fonts.ready');
  for (const scheme of schemes) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => appliedColorScheme(page), { message: `${name} ${scheme}` }).toBe(scheme);
    const picture = await page.screenshot({
      animations: 'disabled',
      caret: 'hide',
      scale: 'css',
      mask: [page.getByText(RANDOM_ID)],
      maskColor: '#808080',
    });
    const problem = await compareWithBaseline(`${name}-${device.name}-${scheme}`, picture);
    if (problem) problems.push(problem);
    // The whole page, below the fold too, for a person to look at (issue 6): the picture above
    // when it shows it all, else one more of the full height.
    const whole = await screenshotPath(`${name}-${device.name}-${scheme}`);
    if (await page.evaluate<boolean>('document.scrollingElement.scrollHeight > window.innerHeight'))
      await page.screenshot({ path: whole, fullPage: true, animations: 'disabled', caret: 'hide' });
    else await writeFile(whole, picture);
    problems.push(...(await checks(page, label, scheme)));
  }
  if (device.name === 'phone') {
    const scroll = await sidewaysScroll(page, label);
    if (scroll) problems.push(scroll);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Signs in and photographs each of `screens`, shown by client-side navigation as the menu does. */
async function photographSignedIn(
  portal: Portal,
  device: Device,
  who: Credentials,
  screens: readonly SignedInScreen[],
  context: ScreenContext,
  problems: string[],
  /** A screen in another language: any h1 announces it, and the schemes to photograph. */
  other: { heading: RegExp; schemes: readonly Scheme[] } | undefined = undefined,
): Promise<void> {
  tick(portal.server);
  const browserContext = await deviceContext(portal, device);
  const page = await browserContext.newPage();
  watchPage(page);
  const network = trackNetwork(page);
  await signIn(page, who.email, who.password);
  for (const screen of screens) {
    try {
      await showScreen(page, network, screen, context, other?.heading);
      await photograph(page, screen.name, device, problems, screenProblems, other?.schemes);
    } catch (error) {
      const path = await screenshotPath(`failure-baseline-${screen.name}-${device.name}`);
      await page.screenshot({ path }).catch(() => undefined);
      problems.push(
        `${screen.name} (${device.name}): ${error instanceof Error ? error.message : String(error)} (see ${path}, at ${page.url()})`,
      );
    }
  }
  await browserContext.close();
}

describePortal(
  'every screen compared with its baseline picture, and checked as issue 6 asks',
  (portal) => {
    let customer: SeededCustomer;
    let admin: Credentials;
    const started = Date.now();

    beforeAll(async () => {
      const { server } = portal;
      server.clock.freeze();
      server.clock.advance(SEEDED_AT - server.clock.now().getTime());
      await server.app.db
        .updateTable('users')
        .set({ email: ADMIN_EMAIL, created_at: new Date(SEEDED_AT).toISOString() })
        .where('email', '=', server.admin.email)
        .execute();
      admin = { email: ADMIN_EMAIL, password: server.admin.password };
      await seedAdminLists(server, 40, { tag: 'demo', random: seededRandom(16) });
      tick(server);
      customer = await seedCustomer(server, { fullName: 'Casey Customer', email: CUSTOMER_EMAIL });
      tick(server);
      // A subscription, so the Subscriptions screens and the overview's figures show data.
      await seedSubscription(server, customer, 'pro-yearly');
      tick(server);
      await fixCustomerValues(server, customer);
    });

    afterAll(() => {
      console.info(
        `[screen-baselines] ${UPDATING ? 'updated' : 'compared'} in ${Math.round((Date.now() - started) / 1000)} s`,
      );
    });

    for (const device of DEVICES) {
      it(`the public pages on a ${device.name}`, async () => {
        const problems: string[] = [];
        const context = await deviceContext(portal, device);
        const page = await context.newPage();
        watchPage(page);
        for (const target of PUBLIC_PAGES) {
          const shown = target.name === 'verify-registration' ? confirmationPage(device) : target;
          try {
            await openPublicPage(portal, page, shown);
            // axe as the public pages were always judged: on the desktop.
            await photograph(
              page,
              target.name,
              device,
              problems,
              device.name === 'desktop' ? publicPageChecks : noChecks,
            );
          } catch (error) {
            problems.push(
              `${target.name} (${device.name}): ${error instanceof Error ? error.message : String(error)}`,
            );
          }
        }
        await context.close();
        expect(problems, problems.join('\n')).toEqual([]);
      });

      it(`the customer's screens on a ${device.name}`, async () => {
        const problems: string[] = [];
        await photographSignedIn(
          portal,
          device,
          customer,
          USER_SCREENS,
          { licenseId: customer.licenseId },
          problems,
        );
        expect(problems, problems.join('\n')).toEqual([]);
      });

      it(`the admin console on a ${device.name}`, async () => {
        const problems: string[] = [];
        await photographSignedIn(
          portal,
          device,
          admin,
          ADMIN_SCREENS,
          { licenseId: customer.licenseId },
          problems,
        );
        expect(problems, problems.join('\n')).toEqual([]);
      });
    }

    /**
     * Issue 34: German, the language with the longest words, at both widths, in light: the public
     * pages in a browser that chose German, the customer's screens for an account whose language is
     * German. A word too long for its place shows as a changed picture or, on a phone, as a page
     * that scrolls sideways.
     */
    for (const device of DEVICES)
      it(`the public pages and the customer's screens in German on a ${device.name}`, async () => {
        const problems: string[] = [];
        const context = await deviceContext(portal, device);
        const page = await context.newPage();
        watchPage(page);
        await page.goto('/landing');
        await page.evaluate(`localStorage.setItem(${JSON.stringify(LANGUAGE_STORAGE_KEY)}, 'de')`);
        for (const target of PUBLIC_PAGES.filter((candidate) => candidate.name !== 'verify-registration')) {
          try {
            await page.goto(await target.url(portal));
            await page.getByRole('heading', { level: 1 }).first().waitFor();
            // The English page rendered ahead of time has a heading too; the dot grid comes only
            // with the client's own render, here the German one (see openPublicPage).
            await page.locator('canvas').first().waitFor({ state: 'attached' });
            await page.waitForLoadState('networkidle');
            await photograph(page, `${target.name}-de`, device, problems, noChecks, ['light']);
          } catch (error) {
            problems.push(`${target.name} in German (${device.name}): ${String(error)}`);
          }
        }
        await context.close();

        const token = await accessToken(portal.server, customer);
        const setLanguage = (language: string) =>
          callApiOk(portal.server, {
            method: 'PUT',
            path: '/users/me/preferences',
            token,
            body: { language },
          });
        tick(portal.server);
        await setLanguage('de');
        try {
          await photographSignedIn(
            portal,
            device,
            customer,
            USER_SCREENS.map((screen) => ({ ...screen, name: `${screen.name}-de` })),
            { licenseId: customer.licenseId },
            problems,
            { heading: /./, schemes: ['light'] },
          );
        } finally {
          tick(portal.server);
          await setLanguage('en');
        }
        expect(problems, problems.join('\n')).toEqual([]);
      });

    it.skipIf(UPDATING)('fails a screen without a baseline, naming the command that writes it', async () => {
      const problem = await compareWithBaseline('no-such-screen', Buffer.from('not a picture'));
      expect(problem).toContain(`run \`${UPDATE_COMMAND}\``);
      expect(problem).toContain('tests/e2e/baselines/no-such-screen.png');
    });
  },
  { timeout: 300_000 },
);
