import { type Kysely, Migrator } from 'kysely';
import { expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { createDatabase } from '../../../src/server/platform/db/database.js';
import { migrations, migrationStatus } from '../../../src/server/platform/db/migrate.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import { expectTokens } from '../helpers/auth-helpers.js';
import { activate, expectActivation, machine, planByCode } from '../helpers/license-helpers.js';
import { expectVerified, openOrder, payInSandbox, verifyPayment } from '../helpers/payment-helpers.js';

/**
 * The schema of the release before this one: its last migration. Moved to this release's last
 * migration when a release is cut, so the migrations added since are the ones tested here.
 */
const PREVIOUS_RELEASE_SCHEMA = '0032-usage-metering';

/** The tables whose rows are the business: an upgrade may add to them, never lose one. */
const BUSINESS_TABLES = ['users', 'licenses', 'activations', 'payments', 'invoices', 'plans'] as const;

async function rowCounts(db: Kysely<unknown>) {
  const counts: Record<string, number> = {};
  for (const table of BUSINESS_TABLES) {
    const row = await (db as Kysely<Record<string, { id: string }>>)
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.count);
  }
  return counts;
}

describeOnEveryDatabase('upgrading a database of the previous release', (server) => {
  it("brings the previous release's schema, with its customers' data, up to this release's and serves it", async () => {
    const s = server();
    expect(Object.keys(migrations)).toContain(PREVIOUS_RELEASE_SCHEMA);
    const added = Object.keys(migrations)
      .sort()
      .filter((name) => name > PREVIOUS_RELEASE_SCHEMA);

    // What a customer leaves in the database: an account, a purchase and its invoice, a machine.
    const { email, password } = await s.createVerifiedUser();
    const { access_token: token } = await s.login(email, password);
    const plan = await planByCode(s, 'pro-monthly');
    const order = await openOrder(s, token, plan.id);
    const { license } = expectVerified(
      await verifyPayment(s, token, await payInSandbox(s, token, order.order_id)),
    );
    const hardwareId = machine();
    expectActivation(await activate(s, token, license.license_key, hardwareId), 201);
    await s.app.close();

    // The database as the previous release left it: this release's migrations undone.
    const previous = createDatabase({ ...s.config });
    try {
      const { error } = await new Migrator({
        db: previous.db,
        provider: { getMigrations: async () => migrations },
      }).migrateTo(PREVIOUS_RELEASE_SCHEMA);
      expect(error).toBeUndefined();
      const status = await migrationStatus(previous.db);
      expect(status.applied.at(-1)).toBe(PREVIOUS_RELEASE_SCHEMA);
      expect(status.pending).toEqual(added);
    } finally {
      await previous.db.destroy();
    }
    const before = await (async () => {
      const handle = createDatabase({ ...s.config });
      try {
        return await rowCounts(handle.db as Kysely<unknown>);
      } finally {
        await handle.db.destroy();
      }
    })();

    // This release starts on it: it migrates at start, and the customer finds everything.
    const next = await buildApp(s.config, { clock: s.clock, logger: false });
    try {
      expect((await migrationStatus(next.db)).pending).toEqual([]);
      expect(await rowCounts(next.db as Kysely<unknown>)).toEqual(before);
      const inject = (method: 'GET' | 'POST', url: string, body?: object, bearer?: string) =>
        next.inject({
          method,
          url: `/api/v1${url}`,
          headers: {
            'x-api-key': 'dap-web-public',
            ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
          },
          ...(body ? { payload: body } : {}),
        });
      const signedIn = expectTokens(await inject('POST', '/auth/login/json', { email, password }));
      const licenses = await inject('GET', '/licenses', undefined, signedIn.access_token);
      expect(licenses.statusCode).toBe(200);
      expect(licenses.body).toContain(license.license_key);
      const check = await inject('POST', '/licenses/validate', {
        license_key: license.license_key,
        hardware_id: hardwareId,
      });
      expect(check.statusCode).toBe(200);
      expect(check.json<{ valid: boolean }>().valid).toBe(true);
    } finally {
      await next.close();
    }
  });
});
