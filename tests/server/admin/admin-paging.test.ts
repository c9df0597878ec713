import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  adminLicenseListSchema,
  adminUserListSchema,
  securityEventListSchema,
} from '../../../src/shared/api/admin.js';
import type { LicenseRow, UserRow } from '../../../src/server/platform/db/tables.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import { expectValidationError, type SignedIn, signIn, signInAsAdmin } from '../helpers/admin-helpers.js';
import { giveLicense, licenseSuiteOptions } from '../helpers/license-helpers.js';

const SEEDED = 35;
const BASE = Date.parse('2024-03-01T00:00:00.000Z');
const HOUR_MS = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();

interface Listed {
  data: { id?: string; license_id?: string }[];
  total: number;
  page: number;
  perPage: number;
}

describeOnEveryDatabase(
  'admin lists: paging, sorting, filters and search',
  (server) => {
    let admin: SignedIn;

    beforeAll(async () => {
      admin = await signInAsAdmin(server());
    });

    const list = async <T extends Listed>(path: string, schema: { parse: (value: unknown) => T }) => {
      const response = await server().api({ path, token: admin.token });
      expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
      return schema.parse(response.json());
    };
    const idOf = (item: { id?: string; license_id?: string }) => item.id ?? item.license_id ?? '';

    /** Reads every page of a query; checks the sizes, the total and that no row repeats or is skipped. */
    async function everyPage<T extends Listed>(
      path: string,
      schema: { parse: (value: unknown) => T },
      expectedTotal: number,
      perPage = 10,
    ): Promise<string[]> {
      const ids: string[] = [];
      const pages = Math.ceil(expectedTotal / perPage);
      for (let page = 1; page <= pages + 1; page += 1) {
        const body = await list(
          `${path}${path.includes('?') ? '&' : '?'}page=${page}&perPage=${perPage}`,
          schema,
        );
        expect(body).toMatchObject({ total: expectedTotal, page, perPage });
        expect(body.data).toHaveLength(Math.max(0, Math.min(perPage, expectedTotal - (page - 1) * perPage)));
        ids.push(...body.data.map(idOf));
      }
      expect(new Set(ids).size).toBe(expectedTotal);
      return ids;
    }

    describe('GET /admin/users', () => {
      const tag = `paged${randomBytes(4).toString('hex')}`;
      const seeded: UserRow[] = [];

      beforeAll(async () => {
        const s = server();
        for (let index = 0; index < SEEDED; index += 1) {
          const created = at(BASE + index * HOUR_MS);
          seeded.push({
            id: randomUUID(),
            email: `${tag}.${String(index).padStart(2, '0')}.${randomBytes(2).toString('hex')}@example.com`,
            password_hash: 'not-a-real-hash',
            role: index % 7 === 0 ? 'admin' : 'user',
            status: index % 5 === 0 ? 'disabled' : 'active',
            full_name: index % 4 === 0 ? null : `Person ${String.fromCharCode(65 + (index % 26))}`,
            company: index === 3 ? `Acme ${tag}` : null,
            preferences: '{}',
            email_verified_at: created,
            password_changed_at: null,
            session_version: 0,
            created_at: created,
            updated_at: created,
            deletion_due_at: null,
            erased_at: null,
          });
        }
        await s.app.db.insertInto('users').values(seeded).execute();
      });

      const users = (query: string) => list(`/admin/users?search=${tag}&${query}`, adminUserListSchema);

      it(`pages through ${SEEDED} users: totals match, pages hold 10, 10, 10, 5, nothing repeats`, async () => {
        const ids = await everyPage(`/admin/users?search=${tag}`, adminUserListSchema, SEEDED);
        expect(ids.toSorted()).toEqual(seeded.map((row) => row.id).toSorted());
        // Newest first by default.
        expect(ids[0]).toBe(seeded[SEEDED - 1]?.id);
        expect(await everyPage(`/admin/users?search=${tag}`, adminUserListSchema, SEEDED, 100)).toEqual(ids);
      });

      it('sorts by creation and e-mail, ascending and descending', async () => {
        const byCreation = seeded.map((row) => row.id);
        expect((await users('sort=created_at&perPage=100')).data.map(idOf)).toEqual(byCreation);
        expect((await users('sort=-created_at&perPage=100')).data.map(idOf)).toEqual(byCreation.toReversed());
        const byEmail = seeded.toSorted((a, b) => (a.email < b.email ? -1 : 1)).map((row) => row.id);
        expect((await users('sort=email&perPage=100')).data.map(idOf)).toEqual(byEmail);
        expect((await users('sort=-email&perPage=100')).data.map(idOf)).toEqual(byEmail.toReversed());
        const names = (await users('sort=full_name&perPage=100')).data.map((user) => user.full_name ?? '');
        expect(names).toEqual(names.toSorted());
      });

      it('filters by role, status and creation dates (ISO dates cover whole days)', async () => {
        const count = (predicate: (row: UserRow) => boolean) => seeded.filter(predicate).length;
        expect((await users('role=admin')).total).toBe(count((row) => row.role === 'admin'));
        expect((await users('status=disabled')).total).toBe(count((row) => row.status === 'disabled'));
        expect((await users('role=admin&status=disabled')).total).toBe(1);
        expect((await users(`from=${at(BASE + 10 * HOUR_MS)}&to=${at(BASE + 19 * HOUR_MS)}`)).total).toBe(10);
        expect((await users('from=2024-03-01&to=2024-03-01')).total).toBe(24);
        expect((await users('from=2024-03-02')).total).toBe(SEEDED - 24);
        // An offset is honoured: 01:00 at +01:00 is midnight UTC.
        expect((await users('to=2024-03-01T01:00:00%2B01:00')).total).toBe(1);
      });

      it('searches e-mail, name and company case-insensitively, with % and _ taken literally', async () => {
        expect((await list(`/admin/users?search=${tag.toUpperCase()}`, adminUserListSchema)).total).toBe(
          SEEDED,
        );
        expect((await list(`/admin/users?search=acme%20${tag}`, adminUserListSchema)).total).toBe(1);
        expect((await list(`/admin/users?search=${tag}%25`, adminUserListSchema)).total).toBe(0);
        expect((await list(`/admin/users?search=${tag}_`, adminUserListSchema)).total).toBe(0);
      });
    });

    describe('GET /admin/licenses', () => {
      let owner: SignedIn;
      const seeded: LicenseRow[] = [];
      const now = () => server().clock.now().getTime();

      beforeAll(async () => {
        const s = server();
        owner = await signIn(s, 'user', `licensed${randomBytes(3).toString('hex')}`);
        for (let index = 0; index < SEEDED; index += 1) {
          const row = await giveLicense(s, owner, index < 20 ? 'pro-monthly' : 'team-yearly');
          const status: LicenseRow['status'] =
            (['active', 'suspended', 'revoked', 'active', 'expired'] as const)[index % 5] ?? 'active';
          const expires =
            index % 5 === 3
              ? at(now() - (index + 1) * HOUR_MS)
              : index % 3 === 0
                ? null
                : at(now() + (index + 1) * 24 * HOUR_MS);
          const created = at(BASE + index * HOUR_MS);
          const changes = { status, expires_at: expires, created_at: created, updated_at: created };
          await s.app.db.updateTable('licenses').set(changes).where('id', '=', row.id).execute();
          seeded.push({ ...row, ...changes });
        }
      });

      const licenses = (query: string) =>
        list(`/admin/licenses?userId=${owner.id}&${query}`, adminLicenseListSchema);

      it(`pages through ${SEEDED} licenses of a user, each with the owner’s e-mail`, async () => {
        const ids = await everyPage(`/admin/licenses?userId=${owner.id}`, adminLicenseListSchema, SEEDED);
        expect(ids.toSorted()).toEqual(seeded.map((row) => row.id).toSorted());
        const page = await licenses('perPage=3');
        expect(page.data.map((license) => license.user_email)).toEqual([
          owner.email,
          owner.email,
          owner.email,
        ]);
        expect(page.data[0]?.license_id).toBe(seeded[SEEDED - 1]?.id);
      });

      it('filters by effective status: an active license past its expiry counts as expired', async () => {
        expect((await licenses('status=active')).total).toBe(7);
        expect((await licenses('status=suspended')).total).toBe(7);
        expect((await licenses('status=revoked')).total).toBe(7);
        expect((await licenses('status=expired')).total).toBe(14);
        for (const license of (await licenses('status=expired&perPage=100')).data)
          expect(license.status).toBe('expired');
      });

      it('filters by plan and creation dates', async () => {
        const pro = seeded[0]?.plan_id ?? '';
        const team = seeded[SEEDED - 1]?.plan_id ?? '';
        expect((await licenses(`planId=${pro}`)).total).toBe(20);
        expect((await licenses(`planId=${team}`)).total).toBe(15);
        expect((await licenses(`planId=${team}&status=active`)).total).toBe(3);
        expect((await licenses(`from=${at(BASE + 5 * HOUR_MS)}&to=${at(BASE + 9 * HOUR_MS)}`)).total).toBe(5);
      });

      it('finds a license by any part of its key, typed in lower case and without dashes, or by the owner’s e-mail', async () => {
        const target = seeded[17] as LicenseRow;
        const fragment = target.license_key.slice(4, 13).replace('-', '').toLowerCase();
        const found = await licenses(`search=${fragment}`);
        expect(found.data.map((license) => license.license_id)).toEqual([target.id]);
        expect((await licenses(`search=${target.license_key}`)).total).toBe(1);
        expect((await list(`/admin/licenses?search=${owner.email}`, adminLicenseListSchema)).total).toBe(
          SEEDED,
        );
      });

      it('sorts by expiry with never-expiring licenses last, and by creation both ways', async () => {
        const expiries = (await licenses('sort=expires_at&perPage=100')).data.map(
          (license) => license.expires_at,
        );
        const dated = expiries.filter((value) => value !== null);
        expect(expiries).toEqual([...dated.toSorted(), ...expiries.filter((value) => value === null)]);
        expect(expiries.at(-1)).toBeNull();
        const ascending = (await licenses('sort=created_at&perPage=100')).data.map(
          (license) => license.license_id,
        );
        expect(ascending).toEqual(seeded.map((row) => row.id));
        const descending = (await licenses('sort=-created_at&perPage=100')).data.map(
          (license) => license.license_id,
        );
        expect(descending).toEqual(ascending.toReversed());
      });
    });

    describe('GET /admin/security-events', () => {
      const subject = randomUUID();
      const other = randomUUID();
      const tag = `evt${randomBytes(4).toString('hex')}`;
      const types = ['login_failed', 'login_succeeded', 'role_changed'] as const;
      const severityOf = (index: number) =>
        index % 5 === 0 ? 'critical' : index % 5 < 3 ? 'warning' : 'info';

      beforeAll(async () => {
        await server()
          .app.db.insertInto('security_events')
          .values(
            Array.from({ length: SEEDED }, (_, index) => ({
              id: randomUUID(),
              type: types[index % 3] as string,
              severity: severityOf(index),
              // The last five are done BY the subject to someone else: "events of a user" includes them.
              user_id: index >= 30 ? other : subject,
              actor_id: index >= 30 ? subject : null,
              ip: `10.9.${index}.1`,
              user_agent: 'test',
              details: JSON.stringify({ tag, index }),
              created_at: at(BASE + index * 60_000),
            })),
          )
          .execute();
      });

      const events = (query: string) =>
        list(`/admin/security-events?userId=${subject}&${query}`, securityEventListSchema);

      it(`pages through ${SEEDED} events of a user, as subject or actor, details parsed`, async () => {
        await everyPage(`/admin/security-events?userId=${subject}`, securityEventListSchema, SEEDED);
        const newest = (await events('perPage=1')).data[0];
        expect(newest).toMatchObject({
          user_id: other,
          user_email: null,
          actor_id: subject,
          details: { tag, index: SEEDED - 1 },
          ip: `10.9.${SEEDED - 1}.1`,
        });
      });

      it('filters by one type or a list of types, severity and dates', async () => {
        expect((await events('type=login_failed')).total).toBe(12);
        expect((await events('type=login_failed,%20role_changed')).total).toBe(23);
        expect((await events('severity=critical')).total).toBe(7);
        expect((await events('severity=warning&type=login_failed')).total).toBe(
          Array.from({ length: SEEDED }, (_, index) => index).filter(
            (index) => index % 3 === 0 && severityOf(index) === 'warning',
          ).length,
        );
        expect((await events(`from=${at(BASE + 10 * 60_000)}&to=${at(BASE + 14 * 60_000)}`)).total).toBe(5);
      });

      it('pages events of the same instant without repeating or skipping one (the id breaks ties)', async () => {
        const s = server();
        const sameInstant = randomUUID();
        const ids = Array.from({ length: 23 }, () => randomUUID());
        await s.app.db
          .insertInto('security_events')
          .values(
            ids.map((id) => ({
              id,
              type: 'login_failed',
              severity: 'info' as const,
              user_id: sameInstant,
              actor_id: null,
              ip: null,
              user_agent: null,
              details: null,
              created_at: at(BASE),
            })),
          )
          .execute();
        for (const sort of ['created_at', '-created_at', 'severity', '-type']) {
          const paged = await everyPage(
            `/admin/security-events?userId=${sameInstant}&sort=${sort}`,
            securityEventListSchema,
            ids.length,
            4,
          );
          expect(paged.toSorted()).toEqual(ids.toSorted());
        }
      });

      it('searches the address and the details', async () => {
        expect((await events('search=10.9.17.')).data.map((event) => event.ip)).toEqual(['10.9.17.1']);
        expect((await list(`/admin/security-events?search=${tag}`, securityEventListSchema)).total).toBe(
          SEEDED,
        );
      });

      it('sorts by creation both ways, and by type', async () => {
        const ascending = (await events('sort=created_at&perPage=100')).data.map((event) => event.created_at);
        expect(ascending).toEqual(ascending.toSorted());
        const descending = (await events('sort=-created_at&perPage=100')).data.map(
          (event) => event.created_at,
        );
        expect(descending).toEqual(ascending.toReversed());
        const byType = (await events('sort=type&perPage=100')).data.map((event) => event.type);
        expect(byType).toEqual(byType.toSorted());
      });

      it('an unknown type → 400 naming it and listing the known ones', async () => {
        const message = expectValidationError(
          await server().api({
            path: '/admin/security-events?type=login_failed,teleported',
            token: admin.token,
          }),
        );
        expect(message).toContain('"teleported"');
        expect(message).toContain('login_succeeded');
        expect(message).toContain('license_revoked');
      });
    });

    describe('bad paging and filter values → 400 naming the parameter', () => {
      const lists = ['/admin/users', '/admin/licenses', '/admin/security-events'];
      const cases = [
        { query: 'perPage=0', says: 'perPage must be 1 or more' },
        { query: 'perPage=101', says: 'perPage must be at most 100' },
        { query: 'perPage=abc', says: 'perPage' },
        { query: 'page=0', says: 'page must be 1 or more' },
        { query: 'page=-1', says: 'page must be 1 or more' },
        { query: 'page=1.5', says: 'page must be a whole number' },
        { query: 'sort=password_hash', says: 'sort: must be one of' },
        { query: 'sort=-', says: 'sort: must be one of' },
        { query: `search=${'x'.repeat(201)}`, says: 'search must be at most 200' },
        { query: 'from=yesterday', says: 'from must be an ISO date' },
        { query: 'to=2024-02-30', says: 'to must be an ISO date' },
        { query: 'to=2024-13-01', says: 'to must be an ISO date' },
        { query: 'from=2024-03-02&to=2024-03-01', says: 'from must not be after to' },
      ];
      it.each(lists.flatMap((path) => cases.map((item) => ({ path, ...item }))))(
        '$path?$query',
        async ({ path, query, says }) => {
          const response = await server().api({ path: `${path}?${query}`, token: admin.token });
          expect(expectValidationError(response)).toContain(says);
        },
      );

      it.each([
        { path: '/admin/users', query: 'role=root', says: 'role' },
        { path: '/admin/users', query: 'status=banned', says: 'status' },
        { path: '/admin/licenses', query: 'status=lost', says: 'status' },
        { path: '/admin/licenses', query: 'userId=me', says: 'Not a user id' },
        { path: '/admin/security-events', query: 'userId=me', says: 'Not a user id' },
        { path: '/admin/security-events', query: 'severity=fatal', says: 'severity' },
        { path: '/admin/security-events', query: 'type=', says: 'type must name at least one' },
        { path: '/admin/security-events', query: 'type=,%20,', says: 'type must name at least one' },
        { path: '/admin/security-events', query: 'sort=ip', says: 'sort: must be one of' },
        { path: '/admin/licenses', query: 'sort=status', says: 'sort: must be one of' },
      ])('$path?$query', async ({ path, query, says }) => {
        expect(
          expectValidationError(await server().api({ path: `${path}?${query}`, token: admin.token })),
        ).toContain(says);
      });
    });
  },
  licenseSuiteOptions,
);
