import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, type Portal, signIn, watchPage } from './support/portal.js';
import { accessToken, callApiOk, planByCode } from './support/seed.js';

/**
 * Issue 29, card trials in the portal on the sandbox: Purchase offers Pro monthly's 14-day trial
 * with a card, saying when the first charge comes; the sandbox checkout charges nothing today; the
 * success panel says the trial started and when the card is first charged. Each screen at
 * 1440×900 and 390×844, light and dark.
 */

const TRIAL_DAYS = 14;
const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

async function photographAll(page: Page, name: string, fullPage = true) {
  for (const size of SIZES) {
    await page.setViewportSize(size.viewport);
    for (const scheme of ['light', 'dark'] as const) {
      await showScheme(page, scheme);
      await photograph(page, `${name}-${size.name}-${scheme}`, { scheme, fullPage });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(SIZES[0].viewport);
}

async function newPage(portal: Portal): Promise<Page> {
  const context = await portal.newContext({ viewport: SIZES[0].viewport, reducedMotion: 'reduce' });
  const page = await context.newPage();
  watchPage(page);
  return page;
}

describePortal('card trials on Purchase: a subscription with its trial, charged at the end', (portal) => {
  beforeAll(async () => {
    const { server } = portal;
    const admin = await accessToken(server, server.admin);
    const pro = await planByCode(server, 'pro-monthly');
    await callApiOk(server, {
      method: 'PUT',
      path: `/plans/${pro.id}`,
      token: admin,
      body: { trial_days: TRIAL_DAYS },
    });
  });

  it('Start 14-day trial with card → the sandbox checkout charges nothing today → the trial started, first charge at its end', async () => {
    const { server } = portal;
    const customer = await server.createUser({ fullName: 'Tara Trial' });
    const page = await newPage(portal);
    await signIn(page, customer.email, customer.password);
    await page.goto('/purchase');
    await page.getByRole('heading', { level: 1, name: 'Purchase' }).waitFor();
    const card = page.getByRole('article', { name: /^Pro/ }).filter({ hasText: '/ month' }).first();
    const start = card.getByRole('button', { name: `Start ${TRIAL_DAYS}-day trial with card` });
    await start.waitFor();
    expect(await card.getByTestId('card-trial-note').innerText()).toMatch(
      /^You won’t be charged until .+, then ₹.+ \/ month\. Cancel before then and nothing is charged\.$/,
    );
    await photographAll(page, 'card-trial-purchase');

    // Reachable by keyboard: focus the button and press Enter.
    await start.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Sandbox checkout' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toMatch(/Free trial until .+, then ₹.+ \/ month until you cancel/);
    await photographAll(page, 'card-trial-checkout', false);
    await dialog.getByRole('button', { name: 'Pay' }).click();
    const success = page.getByRole('region', { name: /^Trial started: your Pro.* license is ready/ });
    await success.waitFor();
    expect(await success.getByTestId('subscription-charged').innerText()).toMatch(
      /^Your free trial runs until .+\. You won’t be charged until then; .+ First charge: ₹.+ on .+\.$/,
    );
    await photographAll(page, 'card-trial-started');

    // The Subscriptions page: the period reads as the free trial; canceling charges nothing.
    await page.goto('/subscriptions');
    await page.getByRole('heading', { level: 1, name: 'Subscriptions' }).waitFor();
    await page.getByText('Free trial', { exact: true }).first().waitFor();
    await photographAll(page, 'card-trial-subscriptions');
    await page.getByRole('button', { name: 'Cancel subscription…' }).click();
    const cancel = page.getByRole('dialog', { name: /^Cancel Pro/ });
    await cancel.waitFor();
    expect(await cancel.getByTestId('cancel-trial').innerText()).toMatch(/^Your card is never charged/);
    await photographAll(page, 'card-trial-cancel', false);

    const rows = await server.app.db
      .selectFrom('subscriptions')
      .innerJoin('users', 'users.id', 'subscriptions.user_id')
      .selectAll('subscriptions')
      .where('users.email', '=', customer.email)
      .execute();
    expect(rows).toMatchObject([{ status: 'active', cycles: 0 }]);
    expect(rows[0]?.trial_ends_at).not.toBeNull();
  });
});
