import { randomBytes } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { expect, it, onTestFinished } from 'vitest';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, signIn } from './support/portal.js';
import { accessToken, callApiOk, seedSubscription } from './support/seed.js';
import { DEVICES } from './support/signed-in-pages.js';
import { licenseStatusCall } from './support/license-check.js';

/**
 * Issue 34, item 9, in Chromium on the sandbox: a customer pauses Pro for one month by keyboard,
 * sees the planned pause, withdraws it and pauses again; the server's clock passes the paid
 * period's end and the scheduler starts the pause: the card reads Paused until the resume date and
 * the desktop's license check answers `license_paused` with that date; Resume now brings it back.
 * An administrator pauses another customer's subscription with a reason.
 */

const HARDWARE_ID = `hw-pauser-${randomBytes(6).toString('hex')}`;

describePortal(
  'pausing a subscription in the browser, on the sandbox',
  (portal) => {
    const db = () => portal.server.app.db;

    const statusCall = (licenseKey: string) =>
      licenseStatusCall(portal.server.baseUrl, licenseKey, HARDWARE_ID);

    const subscriptionRow = (id: string) =>
      db().selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    /** A day as the page writes it (the browser's locale, medium date style). */
    const dayInPage = (page: Page, iso: string) =>
      page.evaluate<string, string>(
        (moment) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(moment)),
        iso,
      );

    /** The element at both widths and in both schemes, checked and saved for a human. */
    async function photographBoth(page: Page, name: string, shows: () => Locator[]) {
      for (const device of DEVICES) {
        await page.setViewportSize(device.options.viewport);
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `${name}-${device.name}-${scheme}`, {
            scheme,
            shows: shows(),
            accessible: 'decided',
          });
        }
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1280, height: 900 });
    }

    const customerPage = () =>
      portal.newPage({
        viewport: { width: 1280, height: 900 },
        colorScheme: 'light',
        reducedMotion: 'reduce',
      });

    /** Waits for the answer of the call the next action makes. */
    const answerTo = (page: Page, path: RegExp) =>
      page.waitForResponse((response) => path.test(response.url()) && response.request().method() === 'POST');

    it('pause for a month → planned pause shown → withdrawn → paused again → the period ends: paused, the check says license_paused → Resume now', async () => {
      const user = await portal.server.createUser({ fullName: 'Pia Pauser' });
      const subscriptionId = await seedSubscription(portal.server, user, 'pro-monthly');
      const seeded = await subscriptionRow(subscriptionId);
      const license = await db()
        .selectFrom('licenses')
        .select(['license_key'])
        .where('id', '=', seeded.license_id!)
        .executeTakeFirstOrThrow();
      await callApiOk(portal.server, {
        method: 'POST',
        path: '/licenses/activate',
        token: await accessToken(portal.server, user),
        body: { license_key: license.license_key, hardware_id: HARDWARE_ID },
      });
      expect((await statusCall(license.license_key)).status).toBe(200);

      let page = await customerPage();
      await signIn(page, user.email, user.password);
      await page.goto('/subscriptions');
      let card = page.getByRole('article', { name: 'Pro', exact: true });
      let badge = card.getByTestId('subscription-status');
      await expect.poll(() => badge.innerText()).toBe('Active');
      const periodEnd = await dayInPage(page, seeded.current_period_end!);

      // By keyboard: Pause… opens the dialog, which says the license works to the period's end.
      await card.getByRole('button', { name: 'Pause…' }).focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Pause Pro?' });
      expect(await dialog.getByTestId('pause-license-note').innerText()).toContain(
        `Your license keeps working until ${periodEnd}, the end of the period you paid for.`,
      );
      expect(await dialog.getByRole('radio', { name: '1 month' }).isChecked()).toBe(true);
      await photographBoth(page, 'pause-dialog', () => [dialog.getByRole('radio', { name: '3 months' })]);
      await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Keep subscription');
      await page.keyboard.press('Tab');
      await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Pause for 1 month');
      let answered = answerTo(page, /\/pause$/);
      await page.keyboard.press('Enter');
      expect((await answered).status()).toBe(200);
      await dialog.waitFor({ state: 'hidden' });

      // The planned pause: when it starts, for how long; the license still works.
      await expect.poll(() => badge.innerText()).toBe('Pause planned');
      const planned = await subscriptionRow(subscriptionId);
      const resumesOnce = await dayInPage(page, planned.pause_resumes_at!);
      await card.getByText(`Pauses on ${periodEnd} for 1 month`).waitFor();
      expect(await card.getByTestId('next-charge').innerText()).toBe(`₹999 on ${resumesOnce}`);
      expect(await card.getByRole('button', { name: 'Pause…' }).count()).toBe(0);
      expect((await statusCall(license.license_key)).status).toBe(200);
      await photographBoth(page, 'pause-planned', () => [card.getByRole('button', { name: 'Don’t pause' })]);

      // Withdrawn: it renews as before.
      answered = answerTo(page, /\/unpause$/);
      await card.getByRole('button', { name: 'Don’t pause' }).click();
      expect((await answered).status()).toBe(200);
      await expect.poll(() => badge.innerText()).toBe('Active');
      expect((await subscriptionRow(subscriptionId)).pause_resumes_at).toBeNull();

      // Paused again, for two months this time, chosen with the arrow keys.
      await card.getByRole('button', { name: 'Pause…' }).click();
      await dialog.getByRole('radio', { name: '1 month' }).focus();
      await page.keyboard.press('ArrowDown');
      expect(await dialog.getByRole('radio', { name: '2 months' }).isChecked()).toBe(true);
      answered = answerTo(page, /\/pause$/);
      await dialog.getByRole('button', { name: 'Pause for 2 months' }).click();
      expect((await answered).status()).toBe(200);
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => badge.innerText()).toBe('Pause planned');
      await card.getByText(`Pauses on ${periodEnd} for 2 months`).waitFor();
      const resumesAt = (await subscriptionRow(subscriptionId)).pause_resumes_at!;

      // The paid period ends: the scheduler starts the pause, nothing is charged.
      const clock = portal.server.clock;
      const moved = Date.parse(seeded.current_period_end!) - clock.now().getTime() + 60_000;
      clock.advance(moved);
      // Moved back after the test, so the next one's sessions start on the browser's own time.
      onTestFinished(() => clock.advance(-moved));
      await portal.server.app.scheduler.runOnce();
      await expect
        .poll(async () => {
          await portal.server.app.scheduler.runOnce();
          return (await subscriptionRow(subscriptionId)).status;
        })
        .toBe('paused');
      const refused = await statusCall(license.license_key);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'license_paused', status: 'paused', resumes_at: resumesAt });
      const resumeDay = await dayInPage(page, resumesAt);
      expect(String(refused.body['message'])).toContain('paused until');

      // A month on, the customer signs in again; the card reads Paused until the resume date.
      page = await customerPage();
      await signIn(page, user.email, user.password);
      await page.goto('/subscriptions');
      card = page.getByRole('article', { name: 'Pro', exact: true });
      badge = card.getByTestId('subscription-status');
      await expect.poll(() => badge.innerText()).toBe('Paused');
      await card.getByText(`Paused until ${resumeDay}`).waitFor();
      await card.getByText(new RegExp(`On ${resumeDay} it resumes by itself`)).waitFor();
      await photographBoth(page, 'paused', () => [card.getByRole('button', { name: 'Resume now…' })]);

      // Resume now: the next period starts and is charged today; the license works again.
      await card.getByRole('button', { name: 'Resume now…' }).click();
      const resume = page.getByRole('dialog', { name: 'Resume Pro now?' });
      await resume.getByText(/The next period starts today and ₹999 is charged now/).waitFor();
      await photographBoth(page, 'resume-now-dialog', () => [
        resume.getByRole('button', { name: 'Resume now' }),
      ]);
      answered = answerTo(page, /\/unpause$/);
      await resume.getByRole('button', { name: 'Resume now' }).click();
      expect((await answered).status()).toBe(200);
      await resume.waitFor({ state: 'hidden' });
      await expect.poll(() => badge.innerText()).toBe('Active');
      expect((await subscriptionRow(subscriptionId)).status).toBe('active');
      expect((await statusCall(license.license_key)).status).toBe(200);
    });

    it('an administrator pauses a customer’s subscription with a reason, kept in the security log', async () => {
      const customer = await portal.server.createUser({ fullName: 'Ravi Phonecall' });
      const subscriptionId = await seedSubscription(portal.server, customer, 'pro-monthly');
      const { admin } = portal.server;
      const page = await portal.newPage({
        viewport: { width: 1280, height: 900 },
        colorScheme: 'light',
        reducedMotion: 'reduce',
      });
      await signIn(page, admin.email, admin.password);
      await page.goto(`/admin/subscriptions?subscription=${encodeURIComponent(subscriptionId)}`);
      const drawer = page.getByRole('dialog', { name: 'Subscription details' });
      await drawer.getByRole('button', { name: 'Pause…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Pause subscription?' });
      const reason = dialog.getByRole('textbox', { name: /Reason/ });
      await reason.waitFor();
      // Without a reason nothing is sent.
      await dialog.getByRole('button', { name: 'Pause for 1 month' }).click();
      await dialog.getByText(/Say why you pause it/).waitFor();
      await reason.fill('Customer asked by phone');
      await photographBoth(page, 'admin-pause-dialog', () => [reason]);
      const answered = answerTo(page, /\/admin\/subscriptions\/[^/]+\/pause$/);
      await dialog.getByRole('button', { name: 'Pause for 1 month' }).click();
      expect((await answered).status()).toBe(200);
      await dialog.waitFor({ state: 'hidden' });
      await drawer.getByText(/^Pauses on .+ for 1 month, until /).waitFor();
      await drawer.getByRole('button', { name: 'Withdraw the pause…' }).waitFor();

      const events = await db()
        .selectFrom('security_events')
        .selectAll()
        .where('type', '=', 'subscription_paused')
        .execute();
      const event = events.find((row) => JSON.stringify(row).includes(subscriptionId));
      expect(JSON.parse(String(event?.details))).toMatchObject({ reason: 'Customer asked by phone' });
      expect((await subscriptionRow(subscriptionId)).pause_periods).toBe(1);
    });
  },
  { timeout: 240_000 },
);
