import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import {
  DOMAIN_PROOF_LABEL,
  MAX_ORGANISATION_DOMAINS,
  type OrganisationDomain,
  organisationDomainListSchema,
  organisationDomainSchema,
} from '../../../src/shared/api/organisation-domains.js';
import { organisationSchema } from '../../../src/shared/api/organisations.js';
import { startDnsServer } from '../../support/dns-server.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { type Member, member } from '../helpers/license-helpers.js';
import { join } from '../helpers/organisation-seat-helpers.js';

// A real DNS server on loopback, which the server asks through DNS_RESOLVER as it would ask any.
const dns = await startDnsServer();
afterAll(() => dns.close());

const uniqueDomain = () => `acme-${randomBytes(4).toString('hex')}.example`;

async function organisation(s: TestServer, owner: Member) {
  const response = await s.api({
    method: 'POST',
    path: '/organisations',
    token: owner.token,
    body: { name: `Acme ${randomBytes(3).toString('hex')}` },
  });
  expect(response.statusCode).toBe(201);
  return organisationSchema.parse(response.json());
}

const addDomain = (s: TestServer, who: Member, organisationId: string, domain: unknown) =>
  s.api({
    method: 'POST',
    path: `/organisations/${organisationId}/domains`,
    token: who.token,
    body: { domain },
  });

const verify = (s: TestServer, who: Member, organisationId: string, domainId: string) =>
  s.api({
    method: 'POST',
    path: `/organisations/${organisationId}/domains/${domainId}/verify`,
    token: who.token,
  });

async function claim(s: TestServer, who: Member, organisationId: string, domain: string) {
  const response = await addDomain(s, who, organisationId, domain);
  expect(response.statusCode).toBe(201);
  return organisationDomainSchema.parse(response.json());
}

async function verified(s: TestServer, who: Member, organisationId: string, claimed: OrganisationDomain) {
  const response = await verify(s, who, organisationId, claimed.id);
  expect(response.statusCode).toBe(200);
  return organisationDomainSchema.parse(response.json());
}

const securityEvents = (s: TestServer, type: string) =>
  s.app.db.selectFrom('security_events').selectAll().where('type', '=', type).execute();

describeOnEveryDatabase(
  'Organisation domains proven by DNS',
  (server) => {
    it('gives the TXT record to publish, stays pending until DNS has it, then is verified', async () => {
      const s = server();
      const owner = await member(s);
      const org = await organisation(s, owner);
      const domain = uniqueDomain();

      const claimed = await claim(s, owner, org.id, ` ${domain.toUpperCase()}. `);
      expect(claimed).toMatchObject({
        domain,
        status: 'pending',
        record_name: `${DOMAIN_PROOF_LABEL}.${domain}`,
        verified_at: null,
        checked_at: null,
      });
      expect(claimed.record_value).toMatch(/^desktop-ai-domain-verification=[\w-]{32}$/);

      // Nothing published yet: the name does not exist.
      let checked = await verified(s, owner, org.id, claimed);
      expect(checked.status).toBe('pending');
      expect(checked.check_failure).toContain('does not exist');
      expect(dns.asked(claimed.record_name)).toBeGreaterThan(0);

      // The name exists without TXT records, then with someone else's value.
      dns.setEmpty(claimed.record_name);
      checked = await verified(s, owner, org.id, claimed);
      expect(checked.check_failure).toBe(`No TXT record at ${claimed.record_name}`);
      dns.setTxt(claimed.record_name, [['v=spf1 -all'], ['desktop-ai-domain-verification=someone-else']]);
      checked = await verified(s, owner, org.id, claimed);
      expect(checked.status).toBe('pending');
      expect(checked.check_failure).toContain('do not include');

      // The servers failing is said as such, and changes nothing.
      dns.fail(claimed.record_name);
      checked = await verified(s, owner, org.id, claimed);
      expect(checked.status).toBe('pending');
      expect(checked.check_failure).toContain('did not answer');

      // Published, split into two strings as DNS may carry a long value: verified.
      const value = claimed.record_value;
      dns.setTxt(claimed.record_name, [['v=spf1 -all'], [value.slice(0, 20), value.slice(20)]]);
      checked = await verified(s, owner, org.id, claimed);
      expect(checked).toMatchObject({ status: 'verified', check_failure: null });
      expect(checked.verified_at).toBe(checked.checked_at);
      expect(checked.verified_at! >= claimed.created_at).toBe(true);

      // Checking again asks DNS no more.
      const asked = dns.asked(claimed.record_name);
      expect((await verified(s, owner, org.id, claimed)).status).toBe('verified');
      expect(dns.asked(claimed.record_name)).toBe(asked);

      const list = await s.api({ path: `/organisations/${org.id}/domains`, token: owner.token });
      expect(organisationDomainListSchema.parse(list.json()).domains).toEqual([checked]);

      const added = await securityEvents(s, 'organisation_domain_added');
      const proven = await securityEvents(s, 'organisation_domain_verified');
      for (const events of [added, proven]) {
        expect(events.filter((event) => event.details?.includes(domain))).toHaveLength(1);
        expect(events.find((event) => event.details?.includes(domain))).toMatchObject({ actor_id: owner.id });
      }
    });

    it('lets one organisation hold a domain verified: a later claim is refused, two proofs at once settle on one', async () => {
      const s = server();
      const [first, second, third] = [await member(s), await member(s), await member(s)];
      const [a, b, c] = [
        await organisation(s, first),
        await organisation(s, second),
        await organisation(s, third),
      ];
      const domain = uniqueDomain();
      // Both claim it while pending, and both publish their records (a shared DNS zone).
      const claimA = await claim(s, first, a.id, domain);
      const claimB = await claim(s, second, b.id, domain);
      dns.setTxt(claimA.record_name, [[claimA.record_value], [claimB.record_value]]);

      const answers = await Promise.all([
        verify(s, first, a.id, claimA.id),
        verify(s, second, b.id, claimB.id),
      ]);
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses).toEqual([200, 409]);
      const loser = answers.find((answer) => answer.statusCode === 409)!;
      expectApiError(loser, 409, 'domain_claimed');
      const holders = await s.app.db
        .selectFrom('organisation_domains')
        .select('organisation_id')
        .where('verified_domain', '=', domain)
        .execute();
      expect(holders).toHaveLength(1);

      // A third organisation cannot even claim it now.
      expectApiError(await addDomain(s, third, c.id, domain), 409, 'domain_claimed');

      // Once the holder gives it up, the domain is free to prove again.
      const holder =
        holders[0]!.organisation_id === a.id
          ? { who: first, org: a, claim: claimA }
          : { who: second, org: b, claim: claimB };
      const removed = await s.api({
        method: 'DELETE',
        path: `/organisations/${holder.org.id}/domains/${holder.claim.id}`,
        token: holder.who.token,
      });
      expect(removed.statusCode).toBe(204);
      const claimC = await claim(s, third, c.id, domain);
      dns.setTxt(claimC.record_name, [[claimC.record_value]]);
      expect((await verified(s, third, c.id, claimC)).status).toBe('verified');
      expect(await securityEvents(s, 'organisation_domain_removed')).toHaveLength(1);
    });

    it('refuses what is not a company domain, a second claim, and more than the limit', async () => {
      const s = server();
      const owner = await member(s);
      const org = await organisation(s, owner);
      for (const bad of [
        'https://example.com',
        'someone@example.com',
        'example',
        'gmail.com',
        'Outlook.com',
        '192.168.1.10',
        '-acme.example',
        'acme-.example',
        'ac me.example',
        `${'a'.repeat(64)}.example`,
        `${'abcdefghi.'.repeat(26)}example`,
        '',
        42,
        null,
      ]) {
        const response = await addDomain(s, owner, org.id, bad);
        expect(response.statusCode, JSON.stringify(bad)).toBe(400);
        expect(response.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      }
      const extra = await s.api({
        method: 'POST',
        path: `/organisations/${org.id}/domains`,
        token: owner.token,
        body: { domain: uniqueDomain(), verified: true },
      });
      expect(extra.statusCode).toBe(400);

      const domain = uniqueDomain();
      await claim(s, owner, org.id, domain);
      expectApiError(await addDomain(s, owner, org.id, domain.toUpperCase()), 409, 'domain_already_added');
      // Two claims of one domain at once: one is added, the other refused; never two rows.
      const racing = uniqueDomain();
      const both = await Promise.all([
        addDomain(s, owner, org.id, racing),
        addDomain(s, owner, org.id, racing),
      ]);
      expect(both.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);

      for (let index = 2; index < MAX_ORGANISATION_DOMAINS; index += 1)
        await claim(s, owner, org.id, uniqueDomain());
      expectApiError(await addDomain(s, owner, org.id, uniqueDomain()), 409, 'too_many_domains');
      const count = await s.app.db
        .selectFrom('organisation_domains')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('organisation_id', '=', org.id)
        .executeTakeFirstOrThrow();
      expect(Number(count.count)).toBe(MAX_ORGANISATION_DOMAINS);

      const unknown = await verify(s, owner, org.id, '00000000-0000-4000-8000-000000000000');
      expectApiError(unknown, 404, 'domain_not_found');
      expect((await verify(s, owner, org.id, 'not-a-uuid')).statusCode).toBe(400);
    });

    it('lets the owner act, admins look, and keeps members and outsiders out', async () => {
      const s = server();
      const owner = await member(s);
      const org = await organisation(s, owner);
      const admin = await join(s, org, { role: 'admin' });
      const plain = await join(s, org, { role: 'member' });
      const outsider = await member(s);
      const platformAdmin = await member(s, 'admin');
      const claimed = await claim(s, owner, org.id, uniqueDomain());

      expectApiError(await addDomain(s, admin, org.id, uniqueDomain()), 403, 'owner_only');
      expectApiError(await verify(s, admin, org.id, claimed.id), 403, 'owner_only');
      const adminList = await s.api({ path: `/organisations/${org.id}/domains`, token: admin.token });
      expect(organisationDomainListSchema.parse(adminList.json()).domains).toHaveLength(1);

      const memberList = await s.api({ path: `/organisations/${org.id}/domains`, token: plain.token });
      expectApiError(memberList, 403, 'organisation_admin_required');
      expectApiError(await addDomain(s, outsider, org.id, uniqueDomain()), 404, 'organisation_not_found');
      const outsiderDelete = await s.api({
        method: 'DELETE',
        path: `/organisations/${org.id}/domains/${claimed.id}`,
        token: outsider.token,
      });
      expectApiError(outsiderDelete, 404, 'organisation_not_found');

      // A platform administrator may act as the owner, for support.
      const bySupport = await s.api({
        method: 'DELETE',
        path: `/organisations/${org.id}/domains/${claimed.id}`,
        token: platformAdmin.token,
      });
      expect(bySupport.statusCode).toBe(204);
      const gone = await s.api({
        method: 'DELETE',
        path: `/organisations/${org.id}/domains/${claimed.id}`,
        token: owner.token,
      });
      expectApiError(gone, 404, 'domain_not_found');
    });
  },
  { env: { DNS_RESOLVER: dns.address } },
);
