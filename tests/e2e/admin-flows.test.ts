import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { SecuritySeverity } from '../../src/server/platform/db/tables.js';
import type { featureStatsSchema } from '../../src/shared/api/features.js';
import { STRONG_PASSWORD, uniqueEmail } from '../support/test-server.js';
import { describePortal, expectPath, signIn } from './support/portal.js';
import { accessToken, callApi, callApiOk, seedCustomer } from './support/seed.js';

/**
 * Issue 6, "Must show": an administrator creates a user (who can then sign in), revokes a license
 * with a reason its owner then reads, edits a package's features (kept after a reload, shown in
 * the public plans) and filters the security events by type and severity (kept in the URL).
 */

const queryOf = (page: Page) => new URL(page.url()).searchParams;

describePortal('administrators at work in the console', (portal) => {
  async function adminPage(): Promise<Page> {
    const page = await portal.newPage({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await signIn(page, portal.server.admin.email, portal.server.admin.password);
    return page;
  }

  it('creates a user with the New user form: the user is in the list and can sign in', async () => {
    const page = await adminPage();
    const email = uniqueEmail('created');
    await page.goto('/admin/users');
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog', { name: 'New user' });
    await dialog.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await dialog.getByRole('textbox', { name: 'Full name' }).fill('Nora Newcomer');
    await dialog.getByRole('textbox', { name: 'Company' }).fill('Newcomer Ltd');
    await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill(STRONG_PASSWORD);
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('User created').first().waitFor();

    // In the list (found by its e-mail), as an active user.
    await page.getByRole('searchbox', { name: 'Search users' }).fill(email);
    await page.getByRole('searchbox', { name: 'Search users' }).press('Enter');
    const table = page.getByRole('table', { name: 'Users', exact: true });
    const row = table.getByRole('row').filter({ hasText: email });
    await row.waitFor();
    expect(await row.textContent()).toContain('Nora Newcomer');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    expect(
      await portal.server.app.db
        .selectFrom('users')
        .select(['role', 'status', 'company'])
        .where('email', '=', email)
        .executeTakeFirst(),
    ).toEqual({ role: 'user', status: 'active', company: 'Newcomer Ltd' });

    // The new user signs in with the password the administrator set.
    const newcomer = await portal.newPage();
    await signIn(newcomer, email, STRONG_PASSWORD);
    await expectPath(newcomer, '/dashboard');
    await newcomer.getByRole('button', { name: 'Account menu for Nora Newcomer' }).waitFor();
  });

  it('revokes a license with a reason, which its owner then sees on the license page', async () => {
    const owner = await seedCustomer(portal.server, { fullName: 'Olive Owner' });
    const reason = `Chargeback filed on ${new Date().toISOString().slice(0, 10)}; contact billing.`;
    const page = await adminPage();
    await page.goto('/admin/licenses');
    await page.getByRole('heading', { level: 1, name: 'Licenses' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search licenses' }).fill(owner.email);
    await page.getByRole('searchbox', { name: 'Search licenses' }).press('Enter');
    const table = page.getByRole('table', { name: 'Licenses', exact: true });
    await expect
      .poll(() => table.locator('tbody tr').allTextContents())
      .toEqual([expect.stringContaining(owner.email)]);
    await table.getByRole('button', { name: `Revoke ${owner.licenseKey}` }).click();

    const dialog = page.getByRole('dialog', { name: 'Revoke license?' });
    // The reason is required: an empty one is not sent.
    await dialog.getByRole('button', { name: 'Revoke license' }).click();
    await expect
      .poll(() => dialog.getByRole('textbox', { name: 'Reason' }).getAttribute('aria-invalid'))
      .toBe('true');
    expect((await licenseRow()).status).toBe('active');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
    await dialog.getByRole('button', { name: 'Revoke license' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('License revoked').first().waitFor();
    expect(await licenseRow()).toMatchObject({ status: 'revoked', revoked_reason: reason });

    // The owner reads the reason on the license's page.
    const ownerPage = await portal.newPage();
    await signIn(ownerPage, owner.email, owner.password);
    await ownerPage.goto(`/licenses/${owner.licenseId}`);
    await ownerPage.getByRole('heading', { level: 1, name: 'Pro license' }).waitFor();
    await ownerPage.getByText('This license was revoked', { exact: true }).first().waitFor();
    expect(await ownerPage.getByTestId('revoked-reason').innerText()).toBe(`Reason given: ${reason}`);

    function licenseRow() {
      return portal.server.app.db
        .selectFrom('licenses')
        .select(['status', 'revoked_reason'])
        .where('id', '=', owner.licenseId)
        .executeTakeFirstOrThrow();
    }
  });

  it("edits a package's features in place: saved, kept after a reload, shown in the public plans", async () => {
    const page = await adminPage();
    await page.goto('/admin/packages');
    await page.getByRole('heading', { level: 1, name: 'Packages' }).waitFor();
    await page.getByRole('button', { name: 'Manage Pro', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Package Pro' });
    const features = drawer.getByRole('table', { name: 'Features of Pro' });
    const include = features.getByRole('checkbox', { name: 'Include Priority support' });
    const chatLimit = features.getByRole('textbox', { name: 'Limit for AI chat' });
    await include.waitFor();
    expect(await include.isChecked()).toBe(false);
    expect(await chatLimit.inputValue()).toBe('5,000');

    await include.check();
    await chatLimit.fill('6500');
    await drawer.getByRole('button', { name: 'Save features' }).click();
    await page.getByText('Features of Pro saved').first().waitFor();

    // Kept after a reload (the drawer is in the URL, so it opens again).
    expect(queryOf(page).get('package')).toBeTruthy();
    await page.reload();
    await include.waitFor();
    expect(await include.isChecked()).toBe(true);
    expect(await chatLimit.inputValue()).toBe('6,500');

    // The public plans show it, to a visitor.
    const visitor = await portal.newPage({ locale: 'en-US' });
    await visitor.goto('/landing');
    const pro = visitor.getByRole('article', { name: 'Pro', exact: true });
    await pro.getByText('Priority support', { exact: true }).waitFor();
    await pro.getByText('AI chat: 6,500 messages per month', { exact: true }).waitFor();
  });

  it('prices a new package in the currencies payments are taken in, one price per currency; the API refuses any other', async () => {
    const page = await adminPage();
    await page.goto('/admin/packages');
    await page.getByRole('heading', { level: 1, name: 'Packages' }).waitFor();
    await page.getByRole('button', { name: 'New package' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New package' });
    const currency = dialog.getByRole('combobox', { name: 'Currency' });
    await expect.poll(() => currency.inputValue()).toBe('INR');
    expect(await currency.locator('option').allTextContents()).toEqual(['INR', 'USD', 'EUR']);
    // Its own currency is the package's price; each other one has a field of its own.
    await dialog.getByRole('textbox', { name: 'Price in USD' }).waitFor();
    await dialog.getByRole('textbox', { name: 'Price in EUR' }).waitFor();
    expect(await dialog.getByRole('textbox', { name: 'Price in INR' }).count()).toBe(0);
    await currency.selectOption('EUR');
    await dialog.getByRole('textbox', { name: 'Price in INR' }).waitFor();
    expect(await dialog.getByRole('textbox', { name: 'Price in EUR' }).count()).toBe(0);
    // In words: no setting's name is shown in the console.
    expect(await dialog.getByText('PAYMENT_CURRENCIES').count()).toBe(0);

    // What the form cannot send, the API refuses, naming the currencies payments are taken in.
    const refused = await callApi(portal.server, {
      method: 'POST',
      path: '/plans',
      token: await accessToken(portal.server, portal.server.admin),
      body: {
        code: 'pounds',
        name: 'Pounds',
        price_minor: 999,
        currency: 'GBP',
        billing_interval: 'month',
        max_activations: 1,
      },
    });
    expect(refused.statusCode).toBe(400);
    const body = refused.json<{ code: string; message: string }>();
    expect(body.code).toBe('unsupported_currency');
    expect(body.message).toContain('the currencies payments are taken in');
    expect(body.message).not.toContain('PAYMENT_CURRENCIES');
  });

  it('cannot delete a feature packages include: the button says which packages, on hover and keyboard focus', async () => {
    const page = await adminPage();
    await page.goto('/admin/features');
    await page.getByRole('heading', { level: 1, name: 'Features' }).waitFor();
    const remove = page.getByRole('button', { name: 'Delete Priority support', exact: true });
    await remove.waitFor();
    expect(await remove.getAttribute('aria-disabled')).toBe('true');
    // Which packages include it, as the server says now (another test here adds it to Pro).
    const stats = await callApiOk<z.infer<typeof featureStatsSchema>>(portal.server, {
      path: '/admin/features/stats',
      token: await accessToken(portal.server, portal.server.admin),
    });
    const packages = stats.by_feature.find((entry) => entry.key === 'priority_support')?.plan_names ?? [];
    expect(packages.length).toBeGreaterThan(0);
    const [them, list] =
      packages.length === 1
        ? ['that package', packages[0]]
        : ['those packages', new Intl.ListFormat('en', { type: 'conjunction' }).format(packages)];
    const reason = `Included in ${list}: remove it from ${them} first, on the Packages page.`;
    await remove.focus();
    await page.getByRole('tooltip').filter({ hasText: reason }).waitFor();
    // Playwright will not click what says it is disabled; a person can, and nothing opens.
    await remove.click({ force: true });
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('filters security events by type and severity: the URL keeps the filter and every row matches', async () => {
    // Events of every kind, so the filter has something to leave out.
    const types = ['login_failed', 'login_succeeded', 'password_changed', 'role_changed'];
    const severities: SecuritySeverity[] = ['info', 'warning', 'critical'];
    const now = Date.now();
    await portal.server.app.db
      .insertInto('security_events')
      .values(
        Array.from({ length: 48 }, (_, index) => ({
          id: randomUUID(),
          type: types[index % types.length] as string,
          severity: severities[index % severities.length] as SecuritySeverity,
          user_id: null,
          actor_id: null,
          ip: `192.0.2.${index}`,
          user_agent: 'e2e',
          details: null,
          created_at: new Date(now - (index + 1) * 60_000).toISOString(),
        })),
      )
      .execute();
    const token = await accessToken(portal.server, portal.server.admin);
    const totalOf = async (query: string) =>
      (await callApiOk<{ total: number }>(portal.server, { path: `/admin/security-events?${query}`, token }))
        .total;

    const page = await adminPage();
    await page.goto('/admin/security');
    await page.getByRole('heading', { level: 1, name: 'Security events' }).waitFor();
    const table = page.getByRole('table', { name: 'Security events', exact: true });
    const everything = await totalOf('perPage=1');
    await page.getByText(new RegExp(`of ${everything} events$`)).waitFor();

    await page.getByRole('combobox', { name: 'Event type' }).click();
    await page.getByRole('option', { name: 'Sign-in failed' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('combobox', { name: 'Severity' }).selectOption('warning');

    const expected = await totalOf('type=login_failed&severity=warning&perPage=1');
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(everything);
    const matching = async () => {
      await page
        .getByText(`Showing 1–${Math.min(expected, 10)} of ${expected} events`, { exact: true })
        .waitFor();
      await expect.poll(() => table.getAttribute('aria-busy')).toBe('false');
      const rows = await table.locator('tbody tr').allTextContents();
      expect(rows).toHaveLength(Math.min(expected, 10));
      for (const row of rows) {
        expect(row).toContain('Sign-in failed');
        expect(row).toContain('Warning');
      }
    };
    await matching();
    expect(queryOf(page).get('type')).toBe('login_failed');
    expect(queryOf(page).get('severity')).toBe('warning');

    // The filter lives in the URL: a reload (or a shared link) shows the same events.
    await page.reload();
    await matching();
    expect(await page.getByRole('combobox', { name: 'Severity' }).inputValue()).toBe('warning');
    const shared = await portal.newPage({ locale: 'en-US' });
    await signIn(shared, portal.server.admin.email, portal.server.admin.password);
    await shared.goto(`/admin/security?type=login_failed&severity=warning`);
    await shared.getByText(`of ${expected} events`, { exact: false }).first().waitFor();
  });
});
