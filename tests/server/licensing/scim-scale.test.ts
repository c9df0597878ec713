import { expect, it } from 'vitest';
import { SCIM_MAX_PAGE } from '../../../src/shared/api/scim.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import { licenseSuiteOptions, member } from '../helpers/license-helpers.js';
import { seatOrganisation } from '../helpers/organisation-seat-helpers.js';
import { baseUrlOf, createScimToken, entraUser, scimClient } from '../helpers/scim-helpers.js';

/**
 * An identity provider's first run: many users created through the real HTTP socket in batches of
 * concurrent requests, then read back page by page. SCIM_SCALE_USERS sets how many: 10 000 is the
 * issue's figure (`SCIM_SCALE_USERS=10000 npx vitest run tests/server/licensing/scim-scale.test.ts`);
 * the default run makes 500 on each database so that the suite stays quick on a shared machine,
 * through the same code (each creation an invitation with its mail, under the organisation's lock).
 */
const USERS = Number(process.env.SCIM_SCALE_USERS ?? 500);
const BATCH = 50;

describeOnEveryDatabase(
  'SCIM provisioning at scale',
  (server) => {
    it(
      `creates ${USERS} users in one run and lists them all, paged`,
      { timeout: Math.max(120_000, USERS * 60) },
      async () => {
        const s = server();
        const owner = await member(s);
        const org = await seatOrganisation(s, owner, USERS + 1);
        const { token } = await createScimToken(s, owner.token, org.id);
        const scim = scimClient(await baseUrlOf(s), token);
        const run = `${Date.now().toString(36)}`;
        const email = (index: number) => `scale-${run}-${index}@bulk.example`;

        for (let start = 0; start < USERS; start += BATCH) {
          const answers = await Promise.all(
            Array.from({ length: Math.min(BATCH, USERS - start) }, (_, offset) =>
              scim('POST', '/Users', entraUser(email(start + offset), `ext-${run}-${start + offset}`)),
            ),
          );
          const failed = answers.filter((answer) => answer.status !== 201);
          expect(failed.map((answer) => answer.body.detail)).toEqual([]);
        }

        const seen = new Set<string>();
        for (let startIndex = 1; ; startIndex += SCIM_MAX_PAGE) {
          const page = await scim(
            'GET',
            `/Users?startIndex=${startIndex}&count=${SCIM_MAX_PAGE}&excludedAttributes=groups`,
          );
          expect(page.status).toBe(200);
          expect(page.body.totalResults).toBe(USERS);
          const resources = page.body.Resources ?? [];
          for (const user of resources) seen.add(String(user.userName));
          if (resources.length < SCIM_MAX_PAGE) break;
        }
        expect(seen.size).toBe(USERS);
        expect(seen.has(email(0)) && seen.has(email(USERS - 1))).toBe(true);
        // The last one is found by its address as an identity provider looks people up.
        const last = await scim(
          'GET',
          `/Users?filter=${encodeURIComponent(`userName eq "${email(USERS - 1)}"`)}`,
        );
        expect(last.body.totalResults).toBe(1);
        const pending = await s.app.db
          .selectFrom('organisation_invitations')
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .where('organisation_id', '=', org.id)
          .executeTakeFirstOrThrow();
        expect(Number(pending.count)).toBe(USERS);
      },
    );
  },
  licenseSuiteOptions,
);
