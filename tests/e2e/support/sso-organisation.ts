import { randomBytes, randomUUID } from 'node:crypto';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { issueLicense } from '../../../src/server/licensing/index.js';
export { DESKTOP, PHONE } from './organisation-page.js';
import type { Portal } from './portal.js';
import { planByCode, seedOrganisation } from './seed.js';
import type { Credentials, PortalServer } from './server.js';

// What the browser tests of single sign-on (OpenID Connect and SAML) share: the address identity
// providers send the browser back to, and an organisation ready to set a provider up.

/** The server's PUBLIC_URL in e2e: the provider sends the browser back there. */
export const PUBLIC_URL = 'http://portal.test';

/**
 * portal.test is this server: the browser coming back from the provider is sent on to it, with a
 * 307 so that a SAML provider's POST to the ACS stays a POST with its form.
 */
async function routePublicUrl(context: BrowserContext, baseUrl: string): Promise<void> {
  await context.route(`${PUBLIC_URL}/**`, (route) =>
    route.fulfill({
      status: 307,
      headers: { location: `${baseUrl}${route.request().url().slice(PUBLIC_URL.length)}` },
    }),
  );
}

/** A page in a context of its own whose trips through a provider come back to this server. */
export async function pageReturningFromProviders(
  portal: Portal,
  options: BrowserContextOptions,
): Promise<Page> {
  const context = await portal.newContext(options);
  await routePublicUrl(context, portal.server.baseUrl);
  return context.newPage();
}

/**
 * An organisation owned by `owner` with 3 seats of the business plan and a mail domain already
 * verified (as the domains section proves one; its own e2e drives that through DNS).
 */
export async function organisationWithVerifiedDomain(
  server: PortalServer,
  owner: Credentials,
  names: { organisation: string; domainPrefix: string },
): Promise<{ organisationId: string; domain: string }> {
  const db = server.app.db;
  const organisationId = await seedOrganisation(server, owner.email, names.organisation);
  const ownerId = (
    await db.selectFrom('users').select('id').where('email', '=', owner.email).executeTakeFirstOrThrow()
  ).id;
  await issueLicense(db, server.clock, server.app.events, {
    userId: ownerId,
    plan: await planByCode(server, 'business-monthly'),
    organisation: { id: organisationId, seats: 3 },
  });
  const domain = `${names.domainPrefix}-${randomBytes(3).toString('hex')}.example`;
  const now = server.clock.now().toISOString();
  await db
    .insertInto('organisation_domains')
    .values({
      id: randomUUID(),
      organisation_id: organisationId,
      domain,
      token: randomBytes(16).toString('hex'),
      verified_domain: domain,
      created_by: ownerId,
      created_at: now,
      verified_at: now,
      checked_at: now,
      check_failure: null,
    })
    .execute();
  return { organisationId, domain };
}
