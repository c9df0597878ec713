import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { readOutbox } from '../support/outbox.js';
import type { BrowserContextOptions } from 'playwright-core';
import { blockingViolations, COLOUR_RULES, describeViolation, installAxe } from './support/axe.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, type Portal, signIn, watchPage } from './support/portal.js';
import type { Credentials } from './support/server.js';

/**
 * Issue 16, points 8 and 9, through the real build in Chromium against the real server (sandbox
 * payments, the file outbox): an abandoned checkout reads Expired in the payment history, and its
 * Retry and Dismiss work; a support request sent from the Support page reaches the administrators'
 * Support requests screen and the support address's mail, with the app and account information
 * only when the customer ticked it. Screenshots land in test-results/screenshots/issue16-*.png.
 */

const DESKTOP = { viewport: { width: 1440, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const API_KEY = { 'x-api-key': 'dap-web-public' };
const SUPPORT_ADDRESS = 'support-desk@example.com';
const LIFETIME = { code: 'pro-lifetime', name: 'Pro Lifetime' };

/** No serious or critical axe violation on the page: every rule, or only the colour ones. */
async function expectAccessible(page: Page, label: string, rules?: readonly string[]) {
  const blocking = await blockingViolations(page, label, rules);
  expect(blocking.map(describeViolation), label).toEqual([]);
}

/**
 * Light, then dark: the same screen in both schemes, checked (the scheme applied, no sideways
 * scroll, the target on screen: photograph; axe) and photographed.
 */
async function shootBoth(page: Page, name: string, target?: Locator) {
  await page.mouse.move(0, 0);
  for (const scheme of ['light', 'dark'] as const) {
    await showScheme(page, scheme);
    await photograph(page, `issue16-${name}-${scheme}`, { scheme, ...(target ? { target } : {}) });
    await expectAccessible(page, `${name} ${scheme}`, scheme === 'dark' ? COLOUR_RULES : undefined);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** A page in a fresh context with axe-core loaded. */
async function checkedPage(portal: Portal, options: BrowserContextOptions): Promise<Page> {
  const context = await portal.newContext({ ...options, colorScheme: 'light', reducedMotion: 'reduce' });
  await installAxe(context);
  const page = await context.newPage();
  watchPage(page);
  return page;
}

async function apiToken(portal: Portal, who: Credentials): Promise<string> {
  const answer = await portal.server.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login/json',
    headers: API_KEY,
    payload: who,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ access_token: string }>().access_token;
}

/** Opens an order for the plan as the checkout does, and leaves it unpaid. */
async function abandonedOrder(portal: Portal, token: string, planId: string) {
  const answer = await portal.server.app.inject({
    method: 'POST',
    url: '/api/v1/payments/razorpay/create-order',
    headers: { ...API_KEY, authorization: `Bearer ${token}` },
    payload: { plan_id: planId },
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json<{ id: string; order_id: string }>();
}

describePortal(
  'abandoned checkouts expire; support requests reach support',
  (portal) => {
    let planId = '';
    beforeAll(async () => {
      const now = new Date().toISOString();
      planId = randomUUID();
      await portal.server.app.db
        .insertInto('plans')
        .values({
          id: planId,
          ...LIFETIME,
          description: 'Everything in Pro, paid once.',
          price_minor: 2_499_900,
          currency: 'INR',
          billing_interval: 'lifetime',
          max_activations: 3,
          is_public: 1,
          is_active: 1,
          sort_order: 10,
          archived_at: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    });

    it('an abandoned order shows Expired with Retry and Dismiss, and both work', async () => {
      const { server } = portal;
      const user = await server.createUser({ fullName: 'Abe Abandon' });
      const token = await apiToken(portal, user);
      const kept = await abandonedOrder(portal, token, planId);
      const dropped = await abandonedOrder(portal, token, planId);
      // Two hours ago: past the default CHECKOUT_EXPIRY_MINUTES (60), without waiting for it.
      const twoHoursAgo = new Date(server.clock.now().getTime() - 2 * 3_600_000).toISOString();
      await server.app.db
        .updateTable('payments')
        .set({ created_at: twoHoursAgo, updated_at: twoHoursAgo })
        .where('id', 'in', [kept.id, dropped.id])
        .execute();

      for (const [device, options] of [
        ['phone', PHONE],
        ['desktop', DESKTOP],
      ] as const) {
        const page = await checkedPage(portal, options);
        await signIn(page, user.email, user.password);
        await page.goto('/purchase');
        const history = page.getByRole('region', { name: 'Payment history' });
        // The status badges (the status filter's options carry the same words).
        const badges = (label: string) =>
          history.locator('.mantine-Badge-root').filter({ hasText: new RegExp(`^${label}$`) });
        await badges('Expired').first().waitFor();
        expect(await badges('Expired').count()).toBe(2);
        expect(await badges('Not completed').count()).toBe(0);
        await history.getByRole('button', { name: `Dismiss order ${dropped.order_id}` }).waitFor();
        await history
          .getByRole('button', { name: `Retry: buy ${LIFETIME.name} again` })
          .first()
          .waitFor();
        await history.scrollIntoViewIfNeeded();
        await shootBoth(page, `expired-order-${device}`, history);
        if (device === 'phone') continue;

        // Dismiss: the order leaves the history (and stays recorded).
        await history.getByRole('button', { name: `Dismiss order ${dropped.order_id}` }).click();
        await page.getByText('Order dismissed').waitFor();
        await expect
          .poll(() => history.getByRole('button', { name: `Dismiss order ${dropped.order_id}` }).count())
          .toBe(0);
        expect(await badges('Expired').count()).toBe(1);
        const droppedRow = await server.app.db
          .selectFrom('payments')
          .select(['status', 'dismissed_at'])
          .where('id', '=', dropped.id)
          .executeTakeFirstOrThrow();
        expect(droppedRow.status).toBe('created');
        expect(droppedRow.dismissed_at).not.toBeNull();

        // Retry: a new checkout for the same plan, paid in the sandbox.
        await history.getByRole('button', { name: `Retry: buy ${LIFETIME.name} again` }).click();
        const dialog = page.getByRole('dialog', { name: 'Sandbox checkout' });
        await dialog.getByText(LIFETIME.name, { exact: true }).waitFor();
        await dialog.getByRole('button', { name: 'Pay', exact: true }).click();
        await page
          .getByRole('heading', { name: `Payment successful: your ${LIFETIME.name} license is ready` })
          .waitFor({ timeout: 15_000 });
        const payments = await server.app.db
          .selectFrom('payments')
          .innerJoin('users', 'users.id', 'payments.user_id')
          .select(['payments.id', 'payments.status', 'payments.plan_id'])
          .where('users.email', '=', user.email)
          .execute();
        expect(payments).toHaveLength(3);
        const retried = payments.find((payment) => payment.id !== kept.id && payment.id !== dropped.id);
        expect(retried).toMatchObject({ status: 'paid', plan_id: planId });
        await badges('Paid').first().waitFor();
        await shootBoth(page, 'expired-order-after-retry-desktop', history);
      }
    });

    it('a support request sent from the portal reaches the admin screen and the mail, diagnostics only when ticked', async () => {
      const { server } = portal;
      const user = await server.createUser({ fullName: 'Sam Support' });
      const page = await checkedPage(portal, DESKTOP);
      await signIn(page, user.email, user.password);
      await page.goto('/support');
      const contact = page.getByRole('region', { name: 'Contact support' });
      await page.getByTestId('support-details').waitFor();
      await shootBoth(page, 'support-form-desktop', contact);

      // Sent without the app and account information (the box starts unticked).
      await contact.getByLabel('Topic').selectOption('Billing and payments');
      await contact.getByRole('textbox', { name: 'Subject' }).fill('Charged twice');
      await contact
        .getByRole('textbox', { name: 'Message' })
        .fill('My card was charged twice for Pro Lifetime yesterday.');
      expect(
        await contact.getByRole('checkbox', { name: /Include the app and account information/ }).isChecked(),
      ).toBe(false);
      await contact.getByRole('button', { name: 'Send request' }).click();
      const sent = contact.getByTestId('support-request-sent');
      await sent.waitFor();
      const firstReference = (await sent.locator('code').innerText()).trim();
      expect(firstReference).toMatch(/^SR-[A-Z0-9]{8}$/);
      expect(await sent.innerText()).toContain(user.email);
      expect(await sent.innerText()).toContain('was not sent');
      await shootBoth(page, 'support-sent-desktop', contact);

      // Another, with the information ticked.
      await sent.getByRole('button', { name: 'Write another request' }).click();
      await contact.getByRole('textbox', { name: 'Subject' }).fill('Activation fails');
      await contact
        .getByRole('textbox', { name: 'Message' })
        .fill('Activating on my laptop says the key is unknown.');
      await contact.getByRole('checkbox', { name: /Include the app and account information/ }).check();
      await contact.getByRole('button', { name: 'Send request' }).click();
      await sent.getByText('was sent with it').waitFor();
      const secondReference = (await sent.locator('code').innerText()).trim();
      expect(secondReference).not.toBe(firstReference);

      // The phone, both schemes.
      const phone = await checkedPage(portal, PHONE);
      await signIn(phone, user.email, user.password);
      await phone.goto('/support');
      const phoneContact = phone.getByRole('region', { name: 'Contact support' });
      await phoneContact.scrollIntoViewIfNeeded();
      await shootBoth(phone, 'support-form-phone', phoneContact);

      // The mails: to the support address, Reply-To the customer, the file only with the second.
      const supportMails = async () =>
        (await readOutbox(server.outboxDir)).filter((mail) => mail.to.includes(SUPPORT_ADDRESS));
      await expect.poll(async () => (await supportMails()).length, { timeout: 10_000 }).toBe(2);
      const mails = await supportMails();
      const first = mails.find((mail) => mail.subject.includes(firstReference));
      const second = mails.find((mail) => mail.subject.includes(secondReference));
      expect(first?.subject).toBe(`[${firstReference}] Billing and payments: Charged twice`);
      expect(first?.headers.get('reply-to')).toContain(user.email);
      expect(first?.text).toContain('My card was charged twice');
      expect(first?.attachments).toEqual([]);
      expect(second?.headers.get('reply-to')).toContain(user.email);
      expect(second?.attachments).toHaveLength(1);
      const diagnostics = second?.attachments[0]?.content.toString('utf8') ?? '';
      expect(diagnostics).toContain(`E-mail: ${user.email}`);
      expect(diagnostics).toContain('App: Desktop AI Assistant web portal');

      // The administrator's screen.
      for (const [device, options] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const admin = await checkedPage(portal, options);
        await signIn(admin, server.admin.email, server.admin.password);
        await admin.goto('/admin/support-requests');
        await admin.getByRole('heading', { level: 1, name: 'Support requests' }).waitFor();
        await admin.getByText(secondReference).first().waitFor();
        await admin.getByText(firstReference).first().waitFor();
        await shootBoth(admin, `admin-support-requests-${device}`);
        if (device === 'phone') continue;

        await admin.getByRole('button', { name: `Read ${secondReference}` }).click();
        const drawer = admin.getByRole('dialog', { name: `Support request ${secondReference}` });
        await drawer.getByTestId('support-diagnostics').waitFor();
        expect(await drawer.getByTestId('support-diagnostics').innerText()).toContain(
          `E-mail: ${user.email}`,
        );
        expect(await drawer.innerText()).toContain('Activating on my laptop says the key is unknown.');
        await shootBoth(admin, 'admin-support-request-drawer-desktop');
        await drawer.getByRole('button', { name: `Mark handled: ${secondReference}` }).click();
        await drawer.getByRole('button', { name: `Reopen: ${secondReference}` }).waitFor();
        const row = await server.app.db
          .selectFrom('support_requests')
          .select(['handled_at', 'diagnostics'])
          .where('reference', '=', secondReference)
          .executeTakeFirstOrThrow();
        expect(row.handled_at).not.toBeNull();
        expect(row.diagnostics).toContain(user.email);
        const firstRow = await server.app.db
          .selectFrom('support_requests')
          .select('diagnostics')
          .where('reference', '=', firstReference)
          .executeTakeFirstOrThrow();
        expect(firstRow.diagnostics).toBeNull();
      }

      // The customer's own list on the Support page: both requests, the one marked handled says so.
      for (const [device, view] of [
        ['desktop', page],
        ['phone', phone],
      ] as const) {
        await view.goto('/support');
        const mine = view.getByRole('region', { name: 'Your requests' });
        const item = (reference: string) => mine.getByRole('listitem').filter({ hasText: reference });
        await item(secondReference).getByText('Handled', { exact: true }).waitFor();
        expect(await item(firstReference).innerText()).toContain('Open');
        expect(await item(firstReference).innerText()).toContain('Charged twice');
        expect(await mine.getByRole('listitem').count()).toBe(2);
        await mine.scrollIntoViewIfNeeded();
        await shootBoth(view, `support-my-requests-${device}`, mine);
      }

      // Each request was acknowledged to the customer, Reply-To the support address.
      const acknowledgements = (await readOutbox(server.outboxDir)).filter(
        (mail) => mail.to.includes(user.email) && mail.subject.includes('We received your request'),
      );
      expect(acknowledgements.map((mail) => mail.subject).sort()).toEqual(
        [
          `[${firstReference}] We received your request: Charged twice`,
          `[${secondReference}] We received your request: Activation fails`,
        ].sort(),
      );
      for (const mail of acknowledgements) expect(mail.headers.get('reply-to')).toContain(SUPPORT_ADDRESS);
    });
  },
  { env: { SUPPORT_EMAIL: SUPPORT_ADDRESS }, timeout: 180_000 },
);
