import { expect, it } from 'vitest';
import { DESKTOP, ownersOrganisationSection, PHONE } from './support/organisation-page.js';
import { photograph, showScheme } from './support/photograph.js';
import { seedOrganisation } from './support/seed.js';
import { describePortal } from './support/portal.js';

/**
 * Issue 32's SCIM provisioning in Chromium: an organisation's owner creates the SCIM token in the
 * Provisioning section, sees it once (a SCIM request with it is answered), stores it, and rotates
 * it (the old token is refused from then on); on a desktop and a phone, light and dark.
 */

describePortal('organisation provisioning in the browser', (portal) => {
  it('creates the SCIM token, shows it once, and rotates it', async () => {
    const owner = await portal.server.createUser({ fullName: 'Olivia Owner' });
    const db = portal.server.app.db;
    const organisationId = await seedOrganisation(portal.server, owner.email, 'Acme Tools');
    const scimUsers = (token: string) =>
      fetch(`${portal.server.baseUrl}/scim/v2/Users`, { headers: { authorization: `Bearer ${token}` } });

    const tokens: string[] = [];
    for (const [device, options] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const page = await (await portal.newContext(options)).newPage();
      const section = await ownersOrganisationSection(page, owner, organisationId, 'Provisioning');
      await expect.poll(() => section.getByText(/^https?:\/\/\S+\/scim\/v2$/).isVisible()).toBe(true);

      if (device === 'desktop') {
        await section.getByRole('button', { name: 'Create token' }).click();
      } else {
        await section.getByRole('button', { name: 'Rotate token' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Rotate token' }).click();
      }
      const shown = section.getByTestId('scim-token-shown');
      await expect.poll(() => shown.isVisible()).toBe(true);
      const token = (await shown.getByText(/^scim_/).textContent()) ?? '';
      expect(token).toMatch(/^scim_[A-Za-z0-9_-]{40,}$/);
      tokens.push(token);
      for (const scheme of ['light', 'dark'] as const) {
        await showScheme(page, scheme);
        await photograph(page, `organisation-provisioning-token-${device}-${scheme}`, {
          scheme,
          target: section,
          accessible: true,
        });
      }
      // The token works at once; once stored, the page shows only its last four characters.
      expect((await scimUsers(token)).status).toBe(200);
      await shown.getByRole('button', { name: 'I have stored it' }).click();
      await expect.poll(() => shown.isVisible()).toBe(false);
      const summary = section.getByTestId('scim-token-summary');
      await expect.poll(() => summary.textContent()).toContain(`…${token.slice(-4)}`);
      expect(await section.textContent()).not.toContain(token);
      for (const scheme of ['light', 'dark'] as const) {
        await showScheme(page, scheme);
        await photograph(page, `organisation-provisioning-stored-${device}-${scheme}`, {
          scheme,
          target: section,
          accessible: true,
        });
      }
    }
    // The rotation on the phone ended the desktop's token.
    const [first, second] = tokens;
    expect(first).not.toBe(second);
    expect((await scimUsers(first ?? '')).status).toBe(401);
    expect((await scimUsers(second ?? '')).status).toBe(200);
    const stored = await db
      .selectFrom('scim_tokens')
      .selectAll()
      .where('organisation_id', '=', organisationId)
      .execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(second);
  });
});
