import { randomFillSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { licenseStatusSchema } from '../../../src/shared/api/licenses.js';
import { generateLicenseKey } from '../../../src/shared/license-key.js';
import type { LeaseClaims } from '../../../src/shared/lease.js';
import { createCheckAnswers } from '../../../src/server/licensing/licenses/check-answers.js';
import type { LicenseCheckRow } from '../../../src/server/licensing/licenses/check-repository.js';
import { createLicenseChecksService } from '../../../src/server/licensing/licenses/check-service.js';
import { createHeartbeats } from '../../../src/server/licensing/licenses/heartbeats.js';
import { createLeaseSigner, rotateLeaseKeys } from '../../../src/server/licensing/leases/lease-signer.js';
import type { PlanCatalogueCache } from '../../../src/server/catalogue/plans/catalogue-cache.js';
import { createTestClock } from '../../support/test-clock.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import {
  activate,
  activatedMachine,
  activationRow,
  DAY_MS,
  deactivate,
  expectActivation,
  expectRefusal,
  licenseSuiteOptions,
  machine,
  planByCode,
  statusOf,
  trackUsage,
  validate,
} from '../helpers/license-helpers.js';

const claimsOf = (lease: string) => decodeJwt(lease) as unknown as LeaseClaims;

async function check(s: TestServer, key: string, hardwareId: string) {
  const response = await statusOf(s, key, hardwareId);
  expect(response.statusCode, response.body).toBe(200);
  return { body: response.body, answer: licenseStatusSchema.parse(response.json()) };
}

describeOnEveryDatabase(
  'license checks: a signed answer kept per license and machine, renewed when anything in it changes',
  (server) => {
    const activated = activatedMachine;

    it('a repeated check gets the very same bytes while the lease is fresh, and a new lease after 10 % of its life', async () => {
      const s = server();
      s.clock.freeze();
      // From noon (UTC), so the minute stepped over never crosses a day, and with it the usage
      // periods the answer is made of: run a minute before midnight, it would be a new answer.
      const now = s.clock.now();
      s.clock.advance(
        Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 12) - now.getTime(),
      );
      const { license, hw } = await activated(s);
      const first = await check(s, license.license_key, hw);
      // The answer is spliced around its features' JSON: still one object, each field once.
      expect(JSON.stringify(JSON.parse(first.body))).toBe(first.body);
      s.clock.advance(60_000);
      expect((await check(s, license.license_key, hw)).body).toBe(first.body);
      // POST /licenses/validate is the same check and gets the same answer.
      expect((await validate(s, license.license_key, hw)).body).toBe(first.body);

      // The lease lives 7 days; LEASE_REUSE_PERCENT (10) of that is about 16.8 hours.
      s.clock.advance(17 * 60 * 60_000);
      const renewed = await check(s, license.license_key, hw);
      expect(claimsOf(renewed.answer.lease).jti).not.toBe(claimsOf(first.answer.lease).jti);
      expect(claimsOf(renewed.answer.lease).iat).toBeGreaterThan(claimsOf(first.answer.lease).iat);
    });

    it('the check that opens a period keeps its answer: the counters its reservation creates at zero change nothing', async () => {
      const s = server();
      const { license, hw } = await activated(s);
      // As on the first check of a new month: no counter of this period exists yet.
      await s.app.db.deleteFrom('usage_counters').where('license_id', '=', license.id).execute();
      const first = await check(s, license.license_key, hw);
      const created = await s.app.db
        .selectFrom('usage_counters')
        .select('total')
        .where('license_id', '=', license.id)
        .execute();
      expect(created.length).toBeGreaterThan(0);
      expect(created.every((counter) => Number(counter.total) === 0)).toBe(true);
      expect((await check(s, license.license_key, hw)).body).toBe(first.body);
    });

    it('is never served for another machine: each machine gets a lease bound to its own hardware id', async () => {
      const s = server();
      const { owner, license, hw } = await activated(s);
      const other = machine('other');
      expectActivation(await activate(s, owner.token, license.license_key, other), 201);
      const mine = await check(s, license.license_key, hw);
      const theirs = await check(s, license.license_key, other);
      expect(claimsOf(mine.answer.lease).hwid).toBe(hw);
      expect(claimsOf(theirs.answer.lease).hwid).toBe(other);
      expect(theirs.answer.activation_id).toBe((await activationRow(s, license.id, other))!.id);
      // And a machine never activated is refused, however warm the license's answers are.
      expectRefusal(
        await statusOf(s, license.license_key, machine('never')),
        403,
        'machine_not_activated',
        'not_activated',
      );
    });

    it('a license revoked in the database (as by another instance) is refused at the next check, and restored gets a new lease', async () => {
      const s = server();
      const { license, hw } = await activated(s);
      const before = await check(s, license.license_key, hw);
      s.clock.advance(1_000);
      const revokedAt = s.clock.now().toISOString();
      await s.app.db
        .updateTable('licenses')
        .set({
          status: 'revoked',
          revoked_reason: 'chargeback',
          revoked_at: revokedAt,
          updated_at: revokedAt,
        })
        .where('id', '=', license.id)
        .execute();
      const refusal = expectRefusal(
        await statusOf(s, license.license_key, hw),
        403,
        'license_revoked',
        'revoked',
      );
      expect(refusal.message).toContain('chargeback');

      s.clock.advance(1_000);
      const restoredAt = s.clock.now().toISOString();
      await s.app.db
        .updateTable('licenses')
        .set({ status: 'active', revoked_reason: null, revoked_at: null, updated_at: restoredAt })
        .where('id', '=', license.id)
        .execute();
      const after = await check(s, license.license_key, hw);
      expect(claimsOf(after.answer.lease).jti).not.toBe(claimsOf(before.answer.lease).jti);
    });

    it('a plan changed in the database is in the next answer and its lease', async () => {
      const s = server();
      const { license, hw } = await activated(s);
      expect(claimsOf((await check(s, license.license_key, hw)).answer.lease).plan.code).toBe('pro-monthly');
      const team = await planByCode(s, 'team-yearly');
      await s.app.db
        .updateTable('licenses')
        .set({ plan_id: team.id, updated_at: new Date(s.clock.now().getTime() + 1).toISOString() })
        .where('id', '=', license.id)
        .execute();
      const after = await check(s, license.license_key, hw);
      expect(after.answer.plan.code).toBe('team-yearly');
      expect(claimsOf(after.answer.lease).plan.code).toBe('team-yearly');
    });

    it('usage shows at once: a tracked use changes the next answer', async () => {
      const s = server();
      const { owner, license, hw } = await activated(s);
      const used = async () =>
        (await check(s, license.license_key, hw)).answer.features.find((feature) => feature.key === 'ai_chat')
          ?.used;
      expect(await used()).toBe(0);
      const tracked = await trackUsage(s, owner.token, license.id, { featureId: 'ai_chat', usageAmount: 3 });
      expect(tracked.statusCode, tracked.body).toBe(200);
      expect(await used()).toBe(3);
    });

    it('a license past its expiry is refused by time alone, though its answer was kept', async () => {
      const s = server();
      s.clock.freeze();
      const { license, hw } = await activated(s);
      await check(s, license.license_key, hw);
      s.clock.advance(32 * DAY_MS);
      expectRefusal(await statusOf(s, license.license_key, hw), 403, 'license_expired', 'expired');
    });

    it('a machine deactivated by its owner is refused at the next check', async () => {
      const s = server();
      const { owner, license, hw } = await activated(s);
      await check(s, license.license_key, hw);
      const freed = await deactivate(s, owner.token, license.id, hw);
      expect(freed.statusCode, freed.body).toBe(200);
      expectRefusal(await statusOf(s, license.license_key, hw), 403, 'machine_deactivated', 'deactivated');
    });
  },
  licenseSuiteOptions,
);

describe('license checks: a kept answer is signed anew under a rotated key', () => {
  it('the same state under a new signing key is not served from the kept answer', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'check-answers-'));
    try {
      const clock = createTestClock();
      const options = { dataDir, configuredKey: undefined, issuer: 'test', ttlSeconds: 7 * 86_400, clock };
      const before = await createLeaseSigner(options);
      await rotateLeaseKeys(dataDir, clock);
      const after = await createLeaseSigner(options);
      expect(after.activeKeyId).not.toBe(before.activeKeyId);

      const row: LicenseCheckRow = {
        id: 'license-1',
        license_key: generateLicenseKey((bytes) => randomFillSync(bytes)),
        plan_id: 'plan-1',
        status: 'active',
        expires_at: null,
        revoked_reason: null,
        suspended_reason: null,
        paused_until: null,
        updated_at: '2026-01-01T00:00:00.000Z',
        organisation_id: null,
        trial_ends_at: null,
        updates_until: null,
        organisation_name: null,
        seat_key: false,
        activation: {
          id: 'activation-1',
          license_id: 'license-1',
          hardware_id: 'machine-1',
          label: null,
          device_name: null,
          platform: null,
          app_version: null,
          activated_at: '2026-01-01T00:00:00.000Z',
          last_seen_at: '2026-01-01T00:00:00.000Z',
          deactivated_at: null,
          deactivated_reason: null,
          activated_by: null,
          components: null,
        },
        usage: [],
        packs: [],
      };
      const catalogue = {
        get: async () => ({
          plan: { id: 'plan-1', code: 'pro', name: 'Pro', billing_interval: 'month' as const },
          features: [],
          currency: 'INR',
          fingerprint: 'plan-1-v1',
          fingerprintThreshold: 3,
        }),
        clear: () => undefined,
      } satisfies PlanCatalogueCache;
      const answers = createCheckAnswers({ maxEntries: 10, maxBytes: 1_000_000 });
      // Check-ins go nowhere here: this test is about the kept answer, not the heartbeat writes.
      const heartbeats = createHeartbeats({
        writer: { write: async () => undefined, close: async () => undefined },
        flushIntervalMs: 60_000,
        onFlushError: (error) => {
          throw error;
        },
      });
      const service = (leases: typeof before) =>
        createLicenseChecksService({
          clock,
          leases,
          planCatalogue: catalogue,
          reads: {
            read: async () => row,
            machinesWithComponents: async () => [],
            floatingSeat: async () => undefined,
            close: () => undefined,
          },
          heartbeats,
          answers,
          leaseReuseShare: 0.1,
        });
      const body = { license_key: row.license_key, hardware_id: 'machine-1' };
      const kidOf = (answer: Buffer) => {
        const lease = (JSON.parse(answer.toString()) as { lease: string }).lease;
        return (JSON.parse(Buffer.from(lease.split('.')[0] ?? '', 'base64url').toString()) as { kid: string })
          .kid;
      };
      const first = await service(before).validate(body);
      expect(kidOf(first)).toBe(before.activeKeyId);
      expect((await service(before).validate(body)).equals(first)).toBe(true);
      expect(kidOf(await service(after).validate(body))).toBe(after.activeKeyId);
      await heartbeats.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
