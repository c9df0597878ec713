import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { startDnsServer } from '../support/dns-server.js';
import { DESKTOP, ownersOrganisationSection, PHONE } from './support/organisation-page.js';
import { photograph, showScheme } from './support/photograph.js';
import { seedOrganisation } from './support/seed.js';
import { describePortal } from './support/portal.js';

/**
 * Issue 32's first step in Chromium: an organisation's owner claims the company's mail domain,
 * publishes the TXT record the page gives at a real DNS server on loopback (which the server asks
 * through DNS_RESOLVER), checks DNS and sees the domain verified; on a desktop and a phone, light
 * and dark.
 */

const dns = await startDnsServer();
afterAll(() => dns.close());

describePortal(
  'organisation sign-in domains in the browser',
  (portal) => {
    it('claims a domain, shows its TXT record, and verifies it against the DNS server', async () => {
      const owner = await portal.server.createUser({ fullName: 'Olivia Owner' });
      const db = portal.server.app.db;
      const organisationId = await seedOrganisation(portal.server, owner.email, 'Acme Tools');
      const domain = `acme-${randomBytes(3).toString('hex')}.example`;

      for (const [device, options] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const page = await (await portal.newContext(options)).newPage();
        const section = await ownersOrganisationSection(page, owner, organisationId, 'Sign-in domains');

        if (device === 'desktop') {
          // From the keyboard: the field, then Enter.
          await section.getByRole('textbox', { name: 'Domain' }).fill(`  ${domain.toUpperCase()} `);
          await section.getByRole('textbox', { name: 'Domain' }).press('Enter');
          const card = section.getByTestId('organisation-domain');
          await expect.poll(() => card.getByText('Waiting for DNS').isVisible()).toBe(true);
          await card.getByRole('button', { name: 'Check DNS' }).click();
          await expect
            .poll(() => card.getByTestId('domain-check-result').textContent())
            .toContain('does not exist');
        }
        const card = section.getByTestId('organisation-domain');
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `organisation-domains-pending-${device}-${scheme}`, {
            scheme,
            target: section,
            accessible: true,
          });
        }
        if (device === 'phone') {
          // The record is published where the page says, and DNS is checked from the phone.
          const name = await card.getByText(/^_desktop-ai-verification\./).textContent();
          const value = await card.getByText(/^desktop-ai-domain-verification=/).textContent();
          expect(name).toBe(`_desktop-ai-verification.${domain}`);
          dns.setTxt(name!, [['v=spf1 -all'], [value!]]);
          await card.getByRole('button', { name: 'Check DNS' }).click();
          await expect.poll(() => card.getByText('Verified', { exact: true }).isVisible()).toBe(true);
          for (const scheme of ['light', 'dark'] as const) {
            await showScheme(page, scheme);
            await photograph(page, `organisation-domains-verified-${device}-${scheme}`, {
              scheme,
              target: section,
              accessible: true,
            });
          }
        }
      }
      const claim = await db
        .selectFrom('organisation_domains')
        .selectAll()
        .where('organisation_id', '=', organisationId)
        .executeTakeFirstOrThrow();
      expect(claim).toMatchObject({ domain, verified_domain: domain });
    });
  },
  { env: { DNS_RESOLVER: dns.address } },
);
