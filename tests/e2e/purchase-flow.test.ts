import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { SANDBOX_DECLINE_REASON } from '../../src/server/billing/payments/service.js';
import { describePortal, expectPath, signIn } from './support/portal.js';
import type { PortalServer } from './support/server.js';

/**
 * Issue 6, "Must show": buying a paid plan through the sandbox checkout on /purchase and seeing
 * the license at once (then on /licenses); a declined payment shows its failure and grants nothing.
 * Monthly and yearly plans are sold as subscriptions (tests/e2e/subscriptions-flow.test.ts), so
 * these one-payment purchases buy a lifetime plan added for the suite.
 */

const LIFETIME = { code: 'pro-lifetime', name: 'Pro Lifetime' };

const userIdOf = async (server: PortalServer, email: string) =>
  (await server.app.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow())
    .id;

const licensesOf = (server: PortalServer, userId: string) =>
  server.app.db
    .selectFrom('licenses')
    .innerJoin('plans', 'plans.id', 'licenses.plan_id')
    .select(['licenses.id', 'licenses.license_key', 'licenses.status', 'plans.code'])
    .where('licenses.user_id', '=', userId)
    .execute();

const paymentsOf = (server: PortalServer, userId: string) =>
  server.app.db.selectFrom('payments').selectAll().where('user_id', '=', userId).execute();

/** /purchase with the plans loaded, the sandbox labelled as such; opens the checkout of Pro Lifetime. */
async function openProCheckout(page: Page) {
  await page.goto('/purchase');
  await page.getByRole('heading', { level: 1, name: 'Purchase' }).waitFor();
  // The server runs the sandbox: the page says so before anyone pays.
  await page.getByRole('note').filter({ hasText: 'Sandbox payments: no real money' }).waitFor();
  await page.getByRole('button', { name: `Buy ${LIFETIME.name}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Sandbox checkout' });
  await dialog.waitFor();
  // The checkout itself is labelled as a sandbox, and shows what is bought.
  await dialog.getByRole('note').filter({ hasText: 'Sandbox: no real money' }).waitFor();
  await dialog.getByText(LIFETIME.name, { exact: true }).waitFor();
  return dialog;
}

describePortal('buying a plan through the sandbox checkout', (portal) => {
  beforeAll(async () => {
    const now = new Date().toISOString();
    await portal.server.app.db
      .insertInto('plans')
      .values({
        id: randomUUID(),
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

  it('a declined payment shows its failure and grants nothing', async () => {
    const user = await portal.server.createUser({ fullName: 'Dana Decline' });
    const userId = await userIdOf(portal.server, user.email);
    const page = await portal.newPage();
    await signIn(page, user.email, user.password);

    const dialog = await openProCheckout(page);
    await dialog.getByRole('button', { name: 'Decline', exact: true }).click();
    const failure = dialog.getByRole('alert').filter({ hasText: 'Not paid' });
    await failure.waitFor();
    expect(await failure.innerText()).toContain('Payment declined');
    await dialog.getByRole('button', { name: 'Close the sandbox checkout' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The history lists the failed payment with its reason.
    const history = page.getByRole('table', { name: 'Your payments' });
    const row = history.getByRole('row').filter({ hasText: SANDBOX_DECLINE_REASON });
    await row.waitFor();
    expect(await row.textContent()).toContain('Failed');
    await expect.poll(() => page.getByRole('heading', { name: /Payment successful/ }).count()).toBe(0);

    // Nothing was granted: no license in the database, none on /licenses.
    expect(await paymentsOf(portal.server, userId)).toEqual([
      expect.objectContaining({ status: 'failed', license_id: null, failure_reason: SANDBOX_DECLINE_REASON }),
    ]);
    expect(await licensesOf(portal.server, userId)).toEqual([]);
    await page.goto('/licenses');
    await page.getByText('You have no license yet').waitFor();
    expect(await page.getByRole('link', { name: /^Details of the / }).count()).toBe(0);
  });

  it('a paid plan shows its license at once, and the license is on /licenses', async () => {
    const user = await portal.server.createUser({ fullName: 'Paula Payer' });
    const userId = await userIdOf(portal.server, user.email);
    const page = await portal.newPage();
    await signIn(page, user.email, user.password);
    // The license list is read (and cached) before the purchase, as a person browsing would.
    await page.goto('/licenses');
    await page.getByText('You have no license yet').waitFor();

    const dialog = await openProCheckout(page);
    await dialog.getByRole('button', { name: 'Pay', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });

    // At once, on the same page: the new license with its key.
    await page
      .getByRole('heading', { name: `Payment successful: your ${LIFETIME.name} license is ready` })
      .waitFor();
    const [granted, ...others] = await licensesOf(portal.server, userId);
    expect(others).toEqual([]);
    expect(granted).toMatchObject({ status: 'active', code: LIFETIME.code });
    expect(await page.getByTestId('purchased-license-key').innerText()).toBe(granted?.license_key);
    expect(await paymentsOf(portal.server, userId)).toEqual([
      expect.objectContaining({ status: 'paid', license_id: granted?.id }),
    ]);
    const paidRow = page
      .getByRole('table', { name: 'Your payments' })
      .getByRole('row')
      .filter({ hasText: 'Paid' });
    await paidRow.waitFor();

    // And on /licenses, reached through the link the success message offers.
    await page.getByRole('link', { name: 'All licenses' }).click();
    await expectPath(page, '/licenses');
    const card = page.getByRole('article', { name: `${LIFETIME.name} license` });
    await card.waitFor();
    await card.getByRole('button', { name: 'Show key' }).click();
    expect(await card.getByTestId('license-key').innerText()).toBe(granted?.license_key);
    expect(await card.textContent()).toContain('Active');
  });
});
