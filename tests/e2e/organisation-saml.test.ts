import { randomUUID } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { startSamlIdentityProvider } from '../support/saml-identity-provider.js';
import { photograph, showScheme } from './support/photograph.js';
import { callApi } from './support/seed.js';
import { describePortal, expectPath, signIn } from './support/portal.js';
import {
  DESKTOP,
  organisationWithVerifiedDomain,
  PHONE,
  pageReturningFromProviders,
} from './support/sso-organisation.js';

/**
 * Issue 32's SAML single sign-on in Chromium, against a SAML identity provider on loopback that
 * signs real assertions: an owner whose domain is verified chooses SAML 2.0 in the organisation's
 * Single sign-on section, gives the provider's metadata URL, runs a test sign-in and sees it
 * succeed, and requires single sign-on; then a new person of that domain, asked no password for
 * the address, continues with single sign-on through the provider (its page posting the assertion
 * to our ACS), lands in the organisation with a seat, and activates a machine on it with the session that gave.
 * Screens on a desktop and a phone, light and dark.
 */

const idp = await startSamlIdentityProvider();
afterAll(() => idp.close());

describePortal(
  'organisation SAML single sign-on in the browser',
  (portal) => {
    it('is set up from the provider’s metadata and tested by the owner, required, and signs a new person in with a seat that activates a machine', async () => {
      const server = portal.server;
      const db = server.app.db;
      const owner = await server.createUser({ fullName: 'Sam Owner' });
      const { organisationId, domain } = await organisationWithVerifiedDomain(server, owner, {
        organisation: 'Globex Research',
        domainPrefix: 'globex',
      });
      const tester = `tess@${domain}`;
      const newcomer = `nico@${domain}`;
      idp.accounts.set(tester, { email: tester, groups: ['portal-admins'], name: 'Tess Tester' });
      idp.accounts.set(newcomer, { email: newcomer, groups: ['research'], name: 'Nico New' });

      for (const [device, options] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const page = await pageReturningFromProviders(portal, options);
        await signIn(page, owner.email, owner.password);
        await page.goto(`/organisations/${organisationId}`);
        const section = page.getByRole('region', { name: 'Single sign-on', exact: true });
        await expect
          .poll(() => section.getByRole('radio', { name: 'SAML 2.0' }).isVisible(), { timeout: 30_000 })
          .toBe(true);
        await section.scrollIntoViewIfNeeded();

        if (device === 'desktop') {
          await section.getByRole('radio', { name: 'SAML 2.0' }).check();
          // What to enter at the provider, to copy.
          await expect
            .poll(() =>
              section.getByText(`/auth/sso/saml/${organisationId}/acs`, { exact: false }).isVisible(),
            )
            .toBe(true);
          await section.getByRole('radio', { name: 'From a URL' }).check();
          await section.getByRole('textbox', { name: /^Metadata URL/ }).fill(idp.metadataUrl);
          await section.getByRole('textbox', { name: /^Group attribute/ }).fill('groups');
          await section.getByRole('button', { name: 'Add a rule' }).click();
          await section.getByRole('textbox', { name: 'Group 1' }).fill('portal-admins');
          await section.getByRole('button', { name: 'Save' }).click();
          // What the metadata said, shown back.
          await expect
            .poll(() => section.getByTestId('saml-identity-provider').textContent(), { timeout: 20_000 })
            .toContain(idp.ssoUrl);

          // The test sign-in: to the provider, its page posting back, and here with what came back.
          idp.signInAs = tester;
          try {
            await section.getByRole('button', { name: 'Test sign-in' }).click();
            await expect
              .poll(() => page.getByTestId('sso-test-result').textContent(), { timeout: 20_000 })
              .toContain('Test sign-in succeeded');
          } finally {
            idp.signInAs = undefined;
          }
          expect(await page.getByTestId('sso-test-result').textContent()).toContain(tester);
          expect(new URL(page.url()).hash).toBe('');
          expect(
            await db.selectFrom('users').select('id').where('email', '=', tester).executeTakeFirst(),
          ).toBeUndefined();

          await section.getByRole('switch', { name: /^Require single sign-on/ }).check();
          await section.getByRole('button', { name: 'Save' }).click();
          await expect
            .poll(() =>
              db
                .selectFrom('organisation_sso')
                .select(['protocol', 'require_sso'])
                .where('organisation_id', '=', organisationId)
                .executeTakeFirst(),
            )
            .toEqual({ protocol: 'saml', require_sso: 1 });
        }
        await expect.poll(() => section.getByRole('radio', { name: 'SAML 2.0' }).isChecked()).toBe(true);
        await expect
          .poll(() => section.getByRole('switch', { name: /^Require single sign-on/ }).isChecked())
          .toBe(true);
        // The pictures: no toast over them, and a window as tall as the section (a section taller
        // than the window is photographed scrolled, with the page's sticky header across it).
        await expect
          .poll(() => page.locator('.mantine-Notification-root').count(), { timeout: 30_000 })
          .toBe(0);
        const height = Math.ceil((await section.boundingBox())?.height ?? 0);
        await page.setViewportSize({
          width: options.viewport!.width,
          height: Math.max(options.viewport!.height, height + 200),
        });
        // In the middle of the window: below the sticky header.
        await section.evaluate((element) =>
          (element as unknown as { scrollIntoView(options: object): void }).scrollIntoView({
            block: 'center',
          }),
        );
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `organisation-saml-${device}-${scheme}`, {
            scheme,
            target: section,
            accessible: true,
          });
        }
      }

      // A new person of the domain types the address (e-mail first): single sign-on is required of
      // it, so no password is asked and the form's button goes to the provider.
      const page = await pageReturningFromProviders(portal, DESKTOP);
      await page.goto('/login');
      const form = page.locator('form');
      await form.getByRole('textbox', { name: 'E-mail' }).fill(newcomer);
      await expect
        .poll(() => page.getByText(/requires single sign-on for this address/).isVisible())
        .toBe(true);
      expect(await form.getByRole('textbox', { name: 'Password', exact: true }).count()).toBe(0);
      // The session the sign-in ends with, as the portal receives it.
      // As long as the trip below may take: on a busy machine the provider and the ACS take seconds.
      const completed = page.waitForResponse((response) => response.url().includes('/auth/sso/complete'), {
        timeout: 30_000,
      });
      await page.getByRole('button', { name: 'Continue with single sign-on' }).click();
      // Through the provider, its form posted to the ACS, the callback, /login#sso_code=…, home.
      await expect
        .poll(
          () => {
            const url = new URL(page.url());
            return url.origin === server.baseUrl && url.pathname !== '/login' ? url.pathname : 'away';
          },
          { timeout: 30_000 },
        )
        .toBe('/dashboard');
      const session = (await (await completed).json()) as {
        access_token: string;
        sso: { joined: boolean; has_seat: boolean };
      };
      expect(session.sso).toMatchObject({ joined: true, has_seat: true });
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

      // A machine activated on the seat by the account the provider signed in.
      const activated = await callApi(server, {
        method: 'POST',
        path: `/organisations/${organisationId}/seat/activate`,
        token: session.access_token,
        body: { hardware_id: `hw-saml-${randomUUID()}` },
      });
      expect(activated.statusCode, activated.body).toBe(201);

      await page.goto(`/organisations/${organisationId}`);
      await expectPath(page, `/organisations/${organisationId}`);
      await expect.poll(() => page.getByRole('heading', { name: 'Globex Research' }).isVisible()).toBe(true);
      const row = page.getByRole('row').filter({ hasText: newcomer });
      await expect.poll(() => row.textContent()).toContain('Yes');
      await photograph(page, 'organisation-saml-newcomer-desktop-light', { scheme: 'light' });
    });
  },
  { env: { SSO_ALLOW_HTTP_ISSUERS: 'true' }, timeout: 240_000 },
);
