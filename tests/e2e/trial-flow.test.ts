import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAppProtocolHandler } from '../../src/main/app-protocol.js';
import { DESKTOP_API_KEY } from '../../src/main/desktop-config.js';
import { deriveHardwareId } from '../../src/main/hardware-id.js';
import type { BridgeDispatch } from '../../src/main/ipc.js';
import { createMemorySecretStore } from '../../src/main/secret-store.js';
import type { LicenseCheckResult } from '../../src/shared/bridge.js';
import { readOutbox } from '../support/outbox.js';
import { RENDERER_BUILD_DIR } from './support/build.js';
import { desktopMainFor } from './support/desktop-main.js';
import {
  installDesktopBridge,
  type PageAnswer,
  routeApiThroughAppProtocol,
} from './support/desktop-bridge.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, expectPath, pathOf, signIn } from './support/portal.js';
import { accessToken, callApiOk, planByCode } from './support/seed.js';

/**
 * Issue 29's first "must show", in Chromium on the sandbox, from the desktop app's window (the
 * page has the real window.desktop of createBridge on main's real handlers, its API calls through
 * main's app:// forwarding): a customer starts the 14-day trial of Pro on Purchase, which activates
 * this machine → the dashboard and the licence check say 14 days left → the server's clock moves 11
 * days and the scheduler runs → the reminder mail is in the outbox → the customer buys through the
 * license's "Buy now" → the same license, key and activation, and an invoice → another account on
 * this machine is refused a second trial, and the page says why.
 */

const DAY_MS = 86_400_000;
const TRIAL_DAYS = 14;
/** The OS machine id main reads (node-machine-id's raw id), fixed so the hardware id is known. */
const MACHINE_ID = 'e2e-trial-machine-3f9c2a71d4b84e06';
const HARDWARE_ID = deriveHardwareId(MACHINE_ID);
const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

describePortal(
  'a free trial end to end in Chromium: started from the desktop bridge (this machine activated), reminded, bought, refused on the same machine',
  (portal) => {
    const db = () => portal.server.app.db;
    let dir: string;
    let dispatch: BridgeDispatch;
    /** Where main keeps the refresh token: memory (no keyring here), shared by the bridge and app://. */
    const secrets = createMemorySecretStore();
    let planId: string;

    beforeAll(async () => {
      const { server } = portal;
      // The administrators offer 14 days of Pro monthly through the plan's form (its PUT).
      const admin = await accessToken(server, server.admin);
      const pro = await planByCode(server, 'pro-monthly');
      planId = pro.id;
      const offered = await callApiOk<{ trial_days: number }>(server, {
        method: 'PUT',
        path: `/plans/${pro.id}`,
        token: admin,
        body: { trial_days: TRIAL_DAYS },
      });
      expect(offered.trial_days).toBe(TRIAL_DAYS);

      dir = await mkdtemp(join(tmpdir(), 'trial-e2e-'));
      dispatch = await desktopMainFor(server, { dir, secrets, machineId: MACHINE_ID });
    });
    afterAll(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    /** The desktop window: window.desktop from the real bridge, every /api call through main's app://. */
    async function desktopPage(): Promise<{ page: Page; answers: PageAnswer[] }> {
      const context = await portal.newContext({ viewport: VIEWPORTS[0], reducedMotion: 'reduce' });
      await installDesktopBridge(context, () => dispatch);
      const answers = await routeApiThroughAppProtocol(
        context,
        createAppProtocolHandler({
          rendererDir: RENDERER_BUILD_DIR,
          serverUrl: portal.server.baseUrl,
          apiKey: DESKTOP_API_KEY,
          secrets,
        }),
      );
      const page = await context.newPage();
      page.on('pageerror', (error) => console.warn(`[e2e] page error on ${page.url()}: ${error.message}`));
      return { page, answers };
    }

    /** This machine's licence check as the app makes it: main asks the server, and verifies its lease. */
    const machineCheck = (page: Page) =>
      page.evaluate<LicenseCheckResult>('window.desktop.checkLicenseStatus()');

    const userIdOf = async (email: string) =>
      (await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

    it('starts, reminds at 3 days left, converts on purchase, and refuses another account’s trial on this machine', async () => {
      const { server } = portal;
      // The server's clock stands still but for the 11 days moved below: "14 days" is exact.
      server.clock.freeze();
      const tess = await server.createUser({ fullName: 'Tess Trial' });
      const tessId = await userIdOf(tess.email);
      const { page, answers } = await desktopPage();
      expect(await page.evaluate<string>('window.desktop.getHardwareId()')).toBe(HARDWARE_ID);
      await signIn(page, tess.email, tess.password);

      // One click on Purchase, no card: the trial license, and this machine activated.
      await page.goto('/purchase');
      await page.getByRole('heading', { level: 1, name: 'Purchase' }).waitFor();
      await page.getByRole('button', { name: 'Start free trial (14 days) of Pro, no card needed' }).click();
      await expectPath(page, '/licenses');
      const started = page
        .locator('.mantine-Notification-root', { hasText: 'Free trial started' })
        .filter({ hasText: 'This machine is activated.' });
      await started.waitFor();
      // Read, it is put away: on a phone it would cover the license card photographed below.
      await started.getByRole('button', { name: 'Close notification' }).click();
      await started.waitFor({ state: 'detached' });
      const [trialLicense, ...otherLicenses] = await db()
        .selectFrom('licenses')
        .select(['id', 'license_key', 'status', 'trial_ends_at'])
        .where('user_id', '=', tessId)
        .execute();
      expect(otherLicenses).toEqual([]);
      expect(trialLicense).toBeDefined();
      const license = trialLicense!;
      expect(Date.parse(license.trial_ends_at ?? '') - server.clock.now().getTime()).toBe(
        TRIAL_DAYS * DAY_MS,
      );
      const activationsOf = () =>
        db()
          .selectFrom('activations')
          .select(['id', 'hardware_id', 'deactivated_at'])
          .where('license_id', '=', license.id)
          .execute();
      const [activation, ...otherActivations] = await activationsOf();
      expect(otherActivations).toEqual([]);
      expect(activation).toMatchObject({ hardware_id: HARDWARE_ID, deactivated_at: null });
      const trialRow = await db()
        .selectFrom('license_trials')
        .selectAll()
        .where('license_id', '=', license.id)
        .executeTakeFirstOrThrow();
      expect(trialRow).toMatchObject({ hardware_id: HARDWARE_ID, source: 'account', converted_at: null });

      // The licence check: main kept the key, the server says 14 days left.
      const check = await machineCheck(page);
      expect(check).toMatchObject({
        valid: true,
        status: 'active',
        license_id: license.id,
        message: 'Free trial: 14 days left',
        trial: { ends_at: license.trial_ends_at, days_left: TRIAL_DAYS },
      });

      // /licenses: this machine's card says what the check says; the license card has the trial flag.
      const machine = page.getByRole('region', { name: 'This machine' });
      await expect
        .poll(() => machine.getByTestId('license-status-message').textContent())
        .toBe('Free trial: 14 days left');
      expect(await machine.getByTestId('hardware-id').textContent()).toBe(HARDWARE_ID);
      const card = page.getByRole('article', { name: 'Pro license' });
      const cardFlag = card.getByTestId('license-flag');
      await cardFlag.filter({ hasText: 'Trial: 14 days left' }).waitFor();
      expect(await cardFlag.getAttribute('data-flag')).toBe('trial');
      await card.getByText('Active on this machine').waitFor();
      const buyNow = cardFlag.getByRole('link', { name: 'Buy now: Pro license' });
      expect(await buyNow.getAttribute('href')).toBe(`/purchase?plan=${planId}`);
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `trial-license-card-${viewport.width}-${scheme}`, {
            scheme,
            target: card,
            shows: [cardFlag, buyNow],
            accessible: 'decided',
          });
        }
      }

      // The dashboard: the license's line says 14 days left, with Buy now.
      await page.setViewportSize(VIEWPORTS[0]);
      await page.goto('/dashboard');
      const yourLicenses = page.getByRole('region', { name: 'Your licenses' });
      const line = yourLicenses.getByTestId('license-summary').filter({ hasText: 'Pro license' });
      const lineFlag = line.getByTestId('license-flag');
      await lineFlag.filter({ hasText: 'Trial: 14 days left' }).waitFor();
      expect(await lineFlag.innerText()).toContain('No card was given, so nothing is charged');
      await line.getByText('On this machine').waitFor();
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `trial-dashboard-line-${viewport.width}-${scheme}`, {
            scheme,
            target: yourLicenses,
            shows: [lineFlag, lineFlag.getByRole('link', { name: 'Buy now: Pro license' })],
            accessible: 'decided',
          });
        }
      }
      await page.setViewportSize(VIEWPORTS[0]);
      await showScheme(page, 'light');

      // Eleven days later the scheduler runs: the reminder (three days before the end) is in the outbox.
      server.clock.advance(11 * DAY_MS);
      await server.app.scheduler.runOnce();
      await server.app.mailOutbox.drain();
      const trialMails = (await readOutbox(server.outboxDir)).filter(
        (mail) => mail.to.includes(tess.email) && /free trial/i.test(mail.subject),
      );
      expect(trialMails.map((mail) => mail.subject)).toEqual([
        expect.stringMatching(/^Your free trial of Pro ends on /),
      ]);
      const reminder = trialMails[0]!;
      expect(reminder.text).toContain('you gave no card, so nothing will be charged');
      expect(reminder.text).toContain(`http://portal.test/purchase?plan=${planId}`);
      expect(reminder.text).toContain(license.license_key.slice(-4));
      // Run again, the same day: no second reminder.
      await server.app.scheduler.runOnce();
      await server.app.mailOutbox.drain();
      expect(
        (await readOutbox(server.outboxDir)).filter(
          (mail) => mail.to.includes(tess.email) && /free trial/i.test(mail.subject),
        ),
      ).toHaveLength(1);
      expect(await machineCheck(page)).toMatchObject({
        valid: true,
        message: 'Free trial: 3 days left',
        trial: { days_left: 3 },
      });
      // The page's access token expired on the server's clock; main kept the sign-in, so it refreshes.
      await page.reload();
      await lineFlag.filter({ hasText: 'Trial: 3 days left' }).waitFor();

      // The customer buys through the line's "Buy now": the plan's checkout opens at once.
      await lineFlag.getByRole('link', { name: 'Buy now: Pro license' }).click();
      const sandbox = page.getByRole('dialog', { name: 'Sandbox checkout' });
      await sandbox.getByText('Pro', { exact: true }).first().waitFor();
      await sandbox.getByRole('button', { name: 'Pay', exact: true }).click();
      await sandbox.waitFor({ state: 'hidden' });
      await page.getByRole('heading', { name: 'Subscribed: your Pro license is ready' }).waitFor();

      // The same license, key and activation; no trial any more, and the first paid month from now.
      const bought = await db()
        .selectFrom('licenses')
        .select(['id', 'license_key', 'status', 'trial_ends_at', 'subscription_id', 'expires_at'])
        .where('user_id', '=', tessId)
        .execute();
      expect(bought).toHaveLength(1);
      expect(bought[0]).toMatchObject({
        id: license.id,
        license_key: license.license_key,
        status: 'active',
      });
      expect(bought[0]?.subscription_id).not.toBeNull();
      const paidFor = Date.parse(bought[0]?.expires_at ?? '') - server.clock.now().getTime();
      expect(paidFor).toBeGreaterThanOrEqual(28 * DAY_MS);
      expect(paidFor).toBeLessThanOrEqual(31 * DAY_MS);
      expect(await activationsOf()).toEqual([activation]);
      expect(
        (
          await db()
            .selectFrom('license_trials')
            .select('converted_at')
            .where('license_id', '=', license.id)
            .executeTakeFirstOrThrow()
        ).converted_at,
      ).toBe(server.clock.now().toISOString());
      const paid = await machineCheck(page);
      expect(paid).toMatchObject({ valid: true, status: 'active', license_id: license.id });
      expect(paid.trial).toBeUndefined();
      expect(paid.message).not.toMatch(/trial/i);

      // The invoice is issued for the charge, and the receipt mail carries it.
      const token = await accessToken(server, tess);
      const invoices = await callApiOk<{ data: { id: string; number: string; status?: string }[] }>(server, {
        path: '/billing/invoices',
        token,
      });
      expect(invoices.data).toHaveLength(1);
      const invoice = invoices.data[0]!;
      const payments = await db()
        .selectFrom('payments')
        .select(['status', 'license_id', 'amount_minor'])
        .where('user_id', '=', tessId)
        .execute();
      expect(payments).toEqual([{ status: 'paid', license_id: license.id, amount_minor: 99_900 }]);
      await server.app.mailOutbox.drain();
      const receipts = (await readOutbox(server.outboxDir)).filter(
        (mail) => mail.to.includes(tess.email) && mail.subject.includes(invoice.number),
      );
      expect(receipts).toHaveLength(1);
      expect(receipts[0]?.attachments.map((file) => file.mimeType)).toEqual(['application/pdf']);

      // On /licenses the trial flag is gone; the card is the same license, still on this machine.
      await page.goto('/licenses');
      await card.getByText('Active on this machine').waitFor();
      expect(await card.getByTestId('license-flag').count()).toBe(0);

      // Tess signs out; Sam signs in on the same machine and asks for a trial of Pro: refused, saying why.
      await page.getByRole('button', { name: /^Account menu for / }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await expect.poll(() => page.evaluate<boolean>('window.desktop.hasSession()')).toBe(false);
      const sam = await server.createUser({ fullName: 'Sam Second' });
      const samId = await userIdOf(sam.email);
      await signIn(page, sam.email, sam.password);
      await page.goto('/purchase');
      await page.getByRole('heading', { level: 1, name: 'Purchase' }).waitFor();
      const before = answers.length;
      await page.getByRole('button', { name: 'Start free trial (14 days) of Pro, no card needed' }).click();
      const refusal = page.locator('.mantine-Notification-root', {
        hasText: 'The free trial was not started',
      });
      await refusal.waitFor();
      const reason = await refusal.innerText();
      expect(reason).toMatch(
        /This machine already had a free trial of Pro \(from .+ to .+\)\. Buy Pro on the Purchase page to keep using it\./,
      );
      expect(pathOf(page)).toBe('/purchase');
      const trialAnswers = answers.slice(before).filter((answer) => answer.url === '/api/v1/licenses/trials');
      expect(trialAnswers.map((answer) => answer.status)).toEqual([409]);
      const refused = JSON.parse(trialAnswers[0]?.body ?? '{}') as Record<string, unknown>;
      expect(refused).toMatchObject({
        code: 'machine_trial_used',
        earlier_trial: { started_at: trialRow.started_at, ends_at: trialRow.ends_at },
      });
      expect(reason).toContain(String(refused['message']));
      // Nothing was written for Sam; the machine keeps Tess's license.
      expect(await db().selectFrom('licenses').select('id').where('user_id', '=', samId).execute()).toEqual(
        [],
      );
      expect(
        await db().selectFrom('license_trials').select('id').where('hardware_id', '=', HARDWARE_ID).execute(),
      ).toHaveLength(1);
      expect(await machineCheck(page)).toMatchObject({ valid: true, license_id: license.id });
    });
  },
  { timeout: 180_000 },
);
