import { afterAll, expect, it } from 'vitest';
import { API_BASE_PATH } from '../../src/shared/routes.js';
import { apiPaths } from '../../src/shared/api-paths.js';
import { startOidcProvider } from '../support/oidc-provider.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, expectPath, signIn } from './support/portal.js';
import {
  DESKTOP,
  organisationWithVerifiedDomain,
  PHONE,
  PUBLIC_URL,
  pageReturningFromProviders,
} from './support/sso-organisation.js';

/**
 * Issue 32's single sign-on in Chromium, against a real OpenID provider (oidc-provider) on
 * loopback: an owner whose domain is verified sets the provider up in the organisation's Single
 * sign-on section, runs a test sign-in and sees it succeed, and requires single sign-on; then a
 * new person of that domain types their address on the sign-in page (e-mail first), is asked for
 * no password, goes through the provider, and lands in the organisation with a seat. Screens on a desktop and a phone, light and dark.
 */

const provider = await startOidcProvider({
  redirectUris: [`${PUBLIC_URL}${API_BASE_PATH}${apiPaths.auth.ssoCallback}`],
});
afterAll(() => provider.close());

describePortal(
  'organisation single sign-on in the browser',
  (portal) => {
    it('is set up and tested by the owner, required, and signs a new person of the domain in with a seat', async () => {
      const server = portal.server;
      const db = server.app.db;
      const owner = await server.createUser({ fullName: 'Olivia Owner' });
      const { organisationId, domain } = await organisationWithVerifiedDomain(server, owner, {
        organisation: 'Acme Tools',
        domainPrefix: 'acme',
      });
      const tester = `tess@${domain}`;
      const newcomer = `nina@${domain}`;
      provider.accounts.set(tester, { email: tester, groups: ['portal-admins'], name: 'Tess Tester' });
      provider.accounts.set(newcomer, { email: newcomer, groups: ['staff'], name: 'Nina New' });

      for (const [device, options] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const page = await pageReturningFromProviders(portal, options);
        await signIn(page, owner.email, owner.password);
        await page.goto(`/organisations/${organisationId}`);
        const section = page.getByRole('region', { name: 'Single sign-on', exact: true });
        // Many sections load at once; on a busy machine the page takes its time.
        await expect
          .poll(() => section.getByText(/\/auth\/sso\/callback$/).isVisible(), { timeout: 30_000 })
          .toBe(true);
        await section.scrollIntoViewIfNeeded();

        if (device === 'desktop') {
          await section.getByRole('textbox', { name: /^Issuer/ }).fill(provider.issuer);
          await section.getByRole('textbox', { name: /^Client ID/ }).fill(provider.clientId);
          await section.getByLabel(/^Client secret/).fill(provider.clientSecret);
          await section.getByRole('textbox', { name: /^Scopes/ }).fill('openid email profile groups');
          await section.getByRole('textbox', { name: /^Group claim/ }).fill('groups');
          await section.getByRole('button', { name: 'Add a rule' }).click();
          await section.getByRole('textbox', { name: 'Group 1' }).fill('portal-admins');
          await section.getByRole('button', { name: 'Save' }).click();
          await expect.poll(() => section.getByTestId('sso-secret-set').isVisible()).toBe(true);

          // The test sign-in: to the provider and back here, with what came back.
          provider.signInAs = tester;
          try {
            await section.getByRole('button', { name: 'Test sign-in' }).click();
            await expect
              .poll(() => page.getByTestId('sso-test-result').textContent(), { timeout: 20_000 })
              .toContain('Test sign-in succeeded');
          } finally {
            provider.signInAs = undefined;
          }
          expect(await page.getByTestId('sso-test-result').textContent()).toContain(tester);
          expect(new URL(page.url()).hash).toBe('');
          // Nobody was signed in or made by the test.
          expect(
            await db.selectFrom('users').select('id').where('email', '=', tester).executeTakeFirst(),
          ).toBeUndefined();

          await section.getByRole('switch', { name: /^Require single sign-on/ }).check();
          await section.getByRole('button', { name: 'Save' }).click();
          await expect
            .poll(() =>
              db
                .selectFrom('organisation_sso')
                .select('require_sso')
                .where('organisation_id', '=', organisationId)
                .executeTakeFirst(),
            )
            .toEqual({ require_sso: 1 });
        }
        await expect
          .poll(() => section.getByRole('switch', { name: /^Require single sign-on/ }).isChecked())
          .toBe(true);
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `organisation-sso-${device}-${scheme}`, {
            scheme,
            target: section,
            accessible: true,
          });
        }
      }

      // A new person of the domain types the address: the organisation requires single sign-on of
      // it, so no password is asked and the form's button (Enter) goes to the provider.
      const phone = await pageReturningFromProviders(portal, PHONE);
      await phone.goto('/login');
      await phone.locator('form').getByRole('textbox', { name: 'E-mail' }).fill(newcomer);
      const requiredNote = (on: typeof phone) => on.getByText(/requires single sign-on for this address/);
      await expect.poll(() => requiredNote(phone).isVisible()).toBe(true);
      await showScheme(phone, 'dark');
      await photograph(phone, 'login-sso-required-phone-dark', {
        scheme: 'dark',
        accessible: true,
        shows: [requiredNote(phone)],
      });
      await phone.close();

      const page = await pageReturningFromProviders(portal, DESKTOP);
      await page.goto('/login');
      const form = page.locator('form');
      const address = form.getByRole('textbox', { name: 'E-mail' });
      await address.fill(newcomer);
      await expect.poll(() => requiredNote(page).isVisible()).toBe(true);
      expect(await form.getByRole('textbox', { name: 'Password', exact: true }).count()).toBe(0);
      await photograph(page, 'login-sso-required-desktop-light', {
        scheme: 'light',
        accessible: true,
        shows: [form.getByRole('button', { name: 'Continue with single sign-on' })],
      });
      await address.press('Enter');
      // Through the provider and back to /login#sso_code=…, which signs in and goes home.
      await expect
        .poll(
          () => {
            const url = new URL(page.url());
            return url.origin === server.baseUrl && url.pathname !== '/login' ? url.pathname : 'away';
          },
          { timeout: 30_000 },
        )
        .toBe('/dashboard');
      const person = await db
        .selectFrom('users')
        .select(['id', 'email'])
        .where('email', '=', newcomer)
        .executeTakeFirstOrThrow();
      const membership = await db
        .selectFrom('organisation_members')
        .select(['role', 'seat_assigned_at'])
        .where('organisation_id', '=', organisationId)
        .where('user_id', '=', person.id)
        .executeTakeFirstOrThrow();
      expect(membership.role).toBe('member');
      expect(membership.seat_assigned_at).not.toBeNull();
      // In the portal: the organisation is theirs, with their seat.
      await page.goto(`/organisations/${organisationId}`);
      await expectPath(page, `/organisations/${organisationId}`);
      await expect.poll(() => page.getByRole('heading', { name: 'Acme Tools' }).isVisible()).toBe(true);
      const row = page.getByRole('row').filter({ hasText: newcomer });
      await expect.poll(() => row.textContent()).toContain('Yes');
      await photograph(page, 'organisation-sso-newcomer-desktop-light', { scheme: 'light' });

      // Not required: single sign-on is offered beside the password, which stays.
      await db
        .updateTable('organisation_sso')
        .set({ require_sso: 0 })
        .where('organisation_id', '=', organisationId)
        .execute();
      const visitor = await pageReturningFromProviders(portal, DESKTOP);
      await visitor.goto('/login');
      await visitor.locator('form').getByRole('textbox', { name: 'E-mail' }).fill(`olga@${domain}`);
      const offer = visitor.getByRole('button', { name: 'Continue with single sign-on' });
      await expect.poll(() => offer.isVisible()).toBe(true);
      expect(await visitor.getByRole('textbox', { name: 'Password', exact: true }).isVisible()).toBe(true);
      await photograph(visitor, 'login-sso-offered-desktop-light', {
        scheme: 'light',
        accessible: true,
        shows: [offer],
      });
    });
  },
  { env: { SSO_ALLOW_HTTP_ISSUERS: 'true' }, timeout: 240_000 },
);
