import { randomBytes } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { PRODUCT_NAME } from '../../src/shared/constants.js';
import { type OutboxMail, readOutbox } from '../support/outbox.js';
import { pdfText } from '../server/helpers/invoice-helpers.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, expectPath, signIn, watchPage } from './support/portal.js';
import { licenseStatusCall } from './support/license-check.js';

/**
 * Issue 15, "Must show", in Chromium on the sandbox, through the portal: subscribe to Pro monthly →
 * a simulated renewal (license extended, the receipt mail with its invoice PDF, read) → a declined
 * renewal (payment-failed mail, license still valid) → the grace period ends (suspended; the
 * desktop's status call says why) → a card that pays (restored) → Pro yearly with the proration
 * shown and charged → cancel at period end → expiry.
 */

const HARDWARE_ID = `hw-subscriber-${randomBytes(6).toString('hex')}`;

describePortal(
  'subscriptions in the browser, on the sandbox',
  (portal) => {
    const db = () => portal.server.app.db;

    const statusCall = (licenseKey: string) =>
      licenseStatusCall(portal.server.baseUrl, licenseKey, HARDWARE_ID);

    /** Mail to `email` whose subject matches, waited for (the outbox worker sends just after the commit). */
    async function mailsTo(email: string, subject: RegExp, count = 1): Promise<OutboxMail[]> {
      let found: OutboxMail[] = [];
      await expect
        .poll(
          async () => {
            found = (await readOutbox(portal.server.outboxDir)).filter(
              (mail) => mail.to.includes(email) && subject.test(mail.subject),
            );
            return found.length;
          },
          { timeout: 10_000, message: `mail to ${email} matching ${subject}` },
        )
        .toBeGreaterThanOrEqual(count);
      return found;
    }

    const licenseOf = (key: string) =>
      db()
        .selectFrom('licenses')
        .select(['id', 'status', 'expires_at'])
        .where('license_key', '=', key)
        .executeTakeFirstOrThrow();

    const badge = (card: Locator) => card.getByTestId('subscription-status');

    /** Sandbox controls' "Simulate next renewal"; answers the subscription's status after it. */
    async function simulate(page: Page, card: Locator): Promise<string> {
      const answered = page.waitForResponse(
        (response) => response.url().includes('/sandbox/renew') && response.request().method() === 'POST',
      );
      await card.getByRole('button', { name: 'Simulate next renewal' }).click();
      const response = await answered;
      expect(response.status()).toBe(200);
      return ((await response.json()) as { status: string }).status;
    }

    async function chooseCard(page: Page, card: Locator, name: RegExp) {
      const answered = page.waitForResponse(
        (response) => response.url().includes('/payment-method') && response.request().method() === 'PUT',
      );
      await card.getByRole('radio', { name }).check();
      expect((await answered).status()).toBe(200);
    }

    /** Both schemes of what the page shows: each checked (photograph) and saved for a human. */
    async function shoot(page: Page, name: string, fullPage = true, shows: Locator[] = []) {
      for (const scheme of ['light', 'dark'] as const) {
        await showScheme(page, scheme);
        await photograph(page, `${name}-${scheme}`, { scheme, fullPage, shows });
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }

    it('subscribe → renewal with receipt PDF → declined → suspended → restored → yearly with proration → cancel → expired', async () => {
      const user = await portal.server.createUser({ fullName: 'Sunita Subscriber' });
      const context = await portal.newContext({
        viewport: { width: 1440, height: 900 },
        colorScheme: 'light',
        reducedMotion: 'reduce',
      });
      await context.addInitScript({
        content: `localStorage.setItem('hardware_id', ${JSON.stringify(HARDWARE_ID)});`,
      });
      const page = await context.newPage();
      watchPage(page);
      await signIn(page, user.email, user.password);

      // Subscribe to Pro monthly on /purchase, through the sandbox checkout.
      await page.goto('/purchase');
      const pro = page.getByRole('article', { name: 'Pro', exact: true });
      await pro.getByRole('button', { name: 'Subscribe — ₹999 / month' }).click();
      const checkout = page.getByRole('dialog', { name: 'Sandbox checkout' });
      await checkout.getByText('₹999 / month until you cancel').waitFor();
      await checkout.getByText(/^sub_sandbox_/).waitFor();
      await shoot(page, 'subscribe-checkout-desktop', false);
      await checkout.getByRole('button', { name: 'Pay', exact: true }).click();
      await checkout.waitFor({ state: 'hidden' });
      await page.getByRole('heading', { name: 'Subscribed: your Pro license is ready' }).waitFor();
      const licenseKey = (await page.getByTestId('purchased-license-key').innerText()).trim();
      await shoot(page, 'subscribe-success-desktop', false);
      const first = await licenseOf(licenseKey);
      expect(first.status).toBe('active');
      // The plan now leads to its subscription instead of a second one.
      await pro.getByRole('link', { name: 'Manage subscription' }).waitFor();

      // The desktop app activates it on this machine; its status call answers 200.
      await page.goto('/licenses');
      const activate = page.getByRole('region', { name: 'Activate by key' });
      await activate.getByRole('textbox', { name: 'License key' }).fill(licenseKey);
      await activate.getByRole('button', { name: 'Activate', exact: true }).click();
      await page.getByText('This machine is activated').first().waitFor();
      expect((await statusCall(licenseKey)).status).toBe(200);

      // The Subscriptions screen, from the navigation.
      await page.getByRole('link', { name: 'Subscriptions' }).first().click();
      await expectPath(page, '/subscriptions');
      const card = page.getByRole('article', { name: 'Pro', exact: true });
      await expect.poll(() => badge(card).innerText()).toBe('Active');
      expect(await card.getByTestId('next-charge').innerText()).toMatch(/^₹999 on /);
      await card.getByText('Sandbox card •••• 4242').waitFor();

      // A simulated renewal: the license is extended and the receipt carries the invoice PDF.
      await simulate(page, card);
      await page.getByText(/^Renewed: paid until /).waitFor();
      // The renewal was brought forward to now: the license, due to end now, runs a month more.
      const renewed = await licenseOf(licenseKey);
      const subscription = await db()
        .selectFrom('subscriptions')
        .select(['cycles', 'current_period_end'])
        .where('license_id', '=', renewed.id)
        .executeTakeFirstOrThrow();
      expect(subscription.cycles).toBe(2);
      expect(renewed.expires_at).toBe(subscription.current_period_end);
      expect(Date.parse(renewed.expires_at!) - portal.server.clock.now().getTime()).toBeGreaterThan(
        27 * 86_400_000,
      );
      const receipts = await mailsTo(user.email, new RegExp(`^Your ${PRODUCT_NAME} receipt INV-\\d{6}$`), 2);
      const receipt = receipts.at(-1)!;
      const number = /INV-\d{6}/.exec(receipt.subject)![0];
      expect(receipt.attachments.map((file) => [file.filename, file.mimeType])).toEqual([
        [`invoice-${number}.pdf`, 'application/pdf'],
      ]);
      const pdf = await pdfText(receipt.attachments[0]!.content);
      expect(pdf).toContain(number);
      expect(pdf).toContain('Sunita Subscriber');
      expect(pdf).toMatch(/Total\s+INR 999\.00/);
      // The charge is listed with its invoice, which links to the Billing page.
      const charges = card.getByRole('list', { name: 'Charges' });
      await expect.poll(() => charges.getByRole('listitem').count()).toBe(2);
      expect(await charges.getByRole('link', { name: `Invoice ${number}` }).getAttribute('href')).toBe(
        '/billing',
      );

      // The card declines: the renewal fails, the customer is told, the license still works.
      await chooseCard(page, card, /^Declines/);
      await simulate(page, card);
      await expect.poll(() => badge(card).innerText()).toBe('Past due');
      const pastDue = card.getByRole('alert').filter({ hasText: /^Payment failed: pay by / });
      await pastDue.getByRole('button', { name: /^Pay now/ }).waitFor();
      const failedMail = (await mailsTo(user.email, /^Payment failed for your Pro/))[0]!;
      expect(failedMail.text).toContain('http://portal.test/subscriptions');
      expect((await statusCall(licenseKey)).status).toBe(200);
      await shoot(page, 'subscriptions-past-due-desktop');

      // Retries fail too until the grace period ends: suspended, and the status call says why.
      let status = 'past_due';
      for (let step = 0; step < 6 && status === 'past_due'; step++) status = await simulate(page, card);
      expect(status).toBe('suspended');
      await expect.poll(() => badge(card).innerText()).toBe('Suspended');
      await card.getByRole('alert').filter({ hasText: 'License suspended: payment needed' }).waitFor();
      const refused = await statusCall(licenseKey);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'license_suspended', valid: false, status: 'suspended' });
      expect(String(refused.body['message'])).toMatch(
        /payment failed and the grace period ended on .* Update the payment method/,
      );
      await mailsTo(user.email, /^Your Pro.* license is suspended$/);
      await shoot(page, 'subscriptions-suspended-desktop');

      // The same screen on a phone: the card, its warning and its actions all visible, no sideways scroll.
      const phone = await portal.newPage({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        deviceScaleFactor: 2,
        colorScheme: 'light',
        reducedMotion: 'reduce',
      });
      await signIn(phone, user.email, user.password);
      await phone.goto('/subscriptions');
      const phoneCard = phone.getByRole('article', { name: 'Pro', exact: true });
      await phoneCard.getByRole('button', { name: /^Pay now/ }).waitFor();
      await phoneCard.getByRole('button', { name: 'Simulate next renewal' }).waitFor();
      await phoneCard.getByRole('list', { name: 'Charges' }).waitFor();
      // photograph checks there is no sideways scroll and that these lie within the screen's width.
      await shoot(phone, 'subscriptions-suspended-phone', true, [
        phoneCard.getByRole('alert').filter({ hasText: 'License suspended: payment needed' }),
        phoneCard.getByRole('button', { name: /^Pay now/ }),
        phoneCard.getByRole('button', { name: 'Simulate next renewal' }),
        phoneCard.getByRole('list', { name: 'Charges' }),
      ]);

      // A card that pays: the outstanding charge goes through at once and the license works again.
      await chooseCard(page, card, /^Pays/);
      await expect.poll(() => badge(card).innerText()).toBe('Active');
      expect((await statusCall(licenseKey)).status).toBe(200);

      // Switch to Pro yearly: the proration is shown before confirming, then charged exactly.
      // One more renewal, paid: the period then matches its charge. (Straight after a restore the
      // quote credits nothing: sandbox/renew moved the subscription's dates back but not the period
      // of the charge that was outstanding, and the quote only credits a charge for the current period.)
      expect(await simulate(page, card)).toBe('active');
      const quoted = page.waitForResponse((response) => response.url().includes('/plan/quote'));
      await card.getByRole('button', { name: 'Switch to yearly…' }).click();
      const change = page.getByRole('dialog', { name: 'Switch to yearly: Pro' });
      const quote = (await (await quoted).json()) as {
        credit_minor: number;
        due_now_minor: number;
        balance_after_minor: number;
      };
      const summary = change.getByTestId('plan-change-quote');
      await summary.waitFor();
      expect(quote.credit_minor).toBeGreaterThan(0);
      expect(quote.due_now_minor).toBe(999_000 - quote.credit_minor);
      const rupees = (minor: number) =>
        `₹${(minor / 100).toLocaleString('en-IN', { minimumFractionDigits: minor % 100 ? 2 : 0, maximumFractionDigits: 2 })}`;
      expect(await summary.innerText()).toContain('Credit for the unused part of this period');
      expect(await summary.innerText()).toContain(rupees(quote.due_now_minor));
      await shoot(page, 'subscriptions-change-plan-desktop', false);
      await change.getByRole('button', { name: `Change and pay ${rupees(quote.due_now_minor)}` }).click();
      await change.waitFor({ state: 'hidden' });
      const yearly = page.getByRole('article', { name: 'Pro (yearly)', exact: true });
      await expect.poll(() => badge(yearly).innerText()).toBe('Active');
      const lastCharge = await db()
        .selectFrom('payments')
        .innerJoin('users', 'users.id', 'payments.user_id')
        .select(['payments.amount_minor', 'payments.status'])
        .where('users.email', '=', user.email)
        .orderBy('payments.created_at', 'desc')
        .executeTakeFirstOrThrow();
      expect(lastCharge).toEqual({ amount_minor: quote.due_now_minor, status: 'paid' });
      await expect.poll(() => yearly.getByTestId('next-charge').innerText()).toMatch(/^₹9,990 on /);

      // Cancel at period end, by keyboard: no further charge; the license runs to the end of the period.
      await yearly.getByRole('button', { name: 'Cancel subscription…' }).focus();
      await page.keyboard.press('Enter');
      const cancel = page.getByRole('dialog', { name: 'Cancel Pro (yearly)?' });
      expect(await cancel.getByRole('radio', { name: /^At the end of the paid period/ }).isChecked()).toBe(
        true,
      );
      // The dialog starts on "Keep subscription"; the next Tab reaches the confirmation.
      await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Keep subscription');
      await page.keyboard.press('Tab');
      await expect
        .poll(() => page.evaluate('document.activeElement?.textContent'))
        .toBe('Cancel at period end');
      await page.keyboard.press('Enter');
      await cancel.waitFor({ state: 'hidden' });
      await expect.poll(() => badge(yearly).innerText()).toBe('Ends at period end');
      await yearly.getByRole('button', { name: 'Resume subscription' }).waitFor();
      expect(await yearly.getByTestId('next-charge').innerText()).toMatch(/^None: ends on /);
      expect((await statusCall(licenseKey)).status).toBe(200);

      // The period ends: the subscription has ended and the license has expired.
      await simulate(page, yearly);
      await expect.poll(() => badge(yearly).innerText()).toBe('Ended');
      expect((await licenseOf(licenseKey)).status).not.toBe('suspended');
      const expired = await statusCall(licenseKey);
      expect(expired.status).toBe(403);
      expect(expired.body).toMatchObject({ code: 'license_expired', status: 'expired' });
      await shoot(page, 'subscriptions-ended-desktop');
    });
  },
  { timeout: 240_000 },
);
