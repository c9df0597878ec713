import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { issueLicense } from '../../src/server/licensing/licenses/issue.js';
import { describePortal, signIn } from './support/portal.js';

/**
 * Issue 27, points 3 and 7 in Chromium: the success panel of a couponed subscription says what was
 * charged today (₹799.20), not only the plan's ₹999 a month; and someone who owns a lifetime plan
 * covering Pro is told so before subscribing to monthly Pro, and may go on knowingly.
 */

describePortal(
  'success panels and the lifetime overlap',
  (portal) => {
    const userIdOf = async (email: string) =>
      (
        await portal.server.app.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', email)
          .executeTakeFirstOrThrow()
      ).id;

    it('a subscription with a 20% coupon: ₹799.20 charged today, line by line, then ₹999', async () => {
      const { server } = portal;
      const now = server.clock.now().toISOString();
      await server.app.db
        .insertInto('coupons')
        .values({
          id: randomUUID(),
          code: 'PANEL20',
          description: null,
          percent_off: 20,
          amount_off_minor: null,
          currency: null,
          duration: 'once',
          expires_at: null,
          max_redemptions: null,
          redeemed_count: 0,
          archived_at: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const customer = await server.createUser({ fullName: 'Paula Panel' });
      const page = await portal.newPage({ viewport: { width: 1280, height: 900 } });
      await signIn(page, customer.email, customer.password);
      await page.goto('/purchase');
      await page.getByRole('heading', { level: 1, name: 'Purchase' }).waitFor();
      await page.getByRole('button', { name: 'I have a coupon' }).click();
      const field = page.getByRole('form', { name: 'Coupon' });
      await field.getByRole('combobox', { name: 'Apply to' }).selectOption({ label: 'Pro' });
      await field.getByRole('textbox', { name: 'Coupon code' }).fill('PANEL20');
      await field.getByRole('button', { name: 'Apply' }).click();
      await page.getByTestId('coupon-applied').waitFor();
      await page
        .getByRole('article', { name: 'Pro', exact: true })
        .getByRole('button', { name: 'Subscribe — ₹799.20 first month' })
        .click();
      const sandbox = page.getByRole('dialog', { name: 'Sandbox checkout' });
      await sandbox.getByRole('button', { name: 'Pay', exact: true }).click();

      const success = page.getByRole('region', { name: /^Subscribed: your Pro license is ready/ });
      await success.waitFor();
      expect(await success.getByTestId('subscription-charged').innerText()).toMatch(
        /^₹799\.20 charged today for Pro; ₹999 \/ month, renewed automatically until you cancel\./,
      );
      const lines = success.getByTestId('charge-lines');
      const text = await lines.innerText();
      expect(text).toMatch(/Pro plan, monthly subscription\s+₹999/);
      expect(text).toMatch(/Coupon PANEL20\s+−₹199\.80/);
      // 18 % included in ₹799.20: ₹121.91 (the invoice's own split).
      expect(text).toMatch(/Including GST 18%\s+₹121\.91|Including IGST 18%\s+₹121\.91/);
      expect(await lines.getByTestId('charged-today').innerText()).toBe('₹799.20');
      expect(await success.getByTestId('next-charge').innerText()).toMatch(/^Next charge: ₹999 on /);
      expect(await success.getByText(/^Renews on /).count()).toBe(1);

      // The panel's figure is the payment's, to the paisa.
      const payments = await server.app.db
        .selectFrom('payments')
        .select('amount_minor')
        .where('user_id', '=', await userIdOf(customer.email))
        .execute();
      expect(payments.map((row) => Number(row.amount_minor))).toEqual([79_920]);
    });

    it('an owner of a lifetime plan covering Pro is told before subscribing, and may go on', async () => {
      const { server } = portal;
      const db = server.app.db;
      const pro = await db
        .selectFrom('plans')
        .selectAll()
        .where('code', '=', 'pro-monthly')
        .executeTakeFirstOrThrow();
      const now = server.clock.now().toISOString();
      const lifetime = { ...pro, id: randomUUID(), code: 'pro-forever', name: 'Pro Forever' };
      await db
        .insertInto('plans')
        .values({
          ...lifetime,
          billing_interval: 'lifetime',
          price_minor: 2_499_900,
          sort_order: 50,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const features = await db
        .selectFrom('plan_features')
        .selectAll()
        .where('plan_id', '=', pro.id)
        .execute();
      await db
        .insertInto('plan_features')
        .values(features.map((row) => ({ ...row, plan_id: lifetime.id })))
        .execute();
      const customer = await server.createUser({ fullName: 'Lena Lifetime' });
      await issueLicense(db, server.clock, server.app.events, {
        userId: await userIdOf(customer.email),
        plan: { ...lifetime, billing_interval: 'lifetime' },
        expiresAt: null,
      });

      const page = await portal.newPage({ viewport: { width: 1280, height: 900 } });
      await signIn(page, customer.email, customer.password);
      await page.goto('/purchase');
      const card = page.getByRole('article', { name: 'Pro', exact: true });
      const warning = card.getByTestId('lifetime-overlap');
      await warning.waitFor();
      expect(await warning.innerText()).toBe(
        'You already own a lifetime Pro Forever license, which includes everything in Pro for good. Subscribe only if you want to pay for it again every month.',
      );
      expect(await card.getByRole('button', { name: 'Subscribe — ₹999 / month' }).count()).toBe(0);

      const opened = page.waitForResponse(
        (response) =>
          response.url().endsWith('/api/v1/subscriptions') && response.request().method() === 'POST',
      );
      await card.getByRole('button', { name: 'Subscribe anyway — ₹999 / month' }).click();
      const answer = await opened;
      expect(answer.status()).toBe(201);
      expect(answer.request().postDataJSON()).toEqual({
        plan_id: pro.id,
        currency: 'INR',
        confirm_lifetime_overlap: true,
      });
      await page.getByRole('dialog', { name: 'Sandbox checkout' }).waitFor();
    });
  },
  { timeout: 180_000 },
);
