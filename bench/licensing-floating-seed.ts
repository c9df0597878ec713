// The floating scenario's licenses (bench/licensing.ts): one floating plan and FLOATING_LICENSES
// licenses of it, added beside the node-locked seed through the server's own database layer (its
// migrations have run). Each license gets one machine, the sample the checkout and heartbeat load
// cycles through. Reused when already there.
import { randomFillSync, randomUUID } from 'node:crypto';
import { createDatabase } from '../src/server/platform/db/database.js';
import { generateLicenseKey } from '../src/shared/license-key.js';
import type { SamplePair, SeedTarget } from './licensing-seed.js';

export const FLOATING_LICENSES = 10_000;
export const FLOATING_PLAN_CODE = 'bench-floating';
const PLAN_CODE = FLOATING_PLAN_CODE;
const BATCH = 500;

/** The floating licenses' (key, machine) pairs, seeded when missing. */
export async function seedFloating(target: SeedTarget, licenses = FLOATING_LICENSES): Promise<SamplePair[]> {
  const { db } = createDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir, poolSize: 4 });
  try {
    const now = new Date().toISOString();
    let plan = await db.selectFrom('plans').selectAll().where('code', '=', PLAN_CODE).executeTakeFirst();
    if (!plan) {
      const base = await db
        .selectFrom('plans')
        .selectAll()
        .where('is_active', '=', 1)
        .where('archived_at', 'is', null)
        .orderBy('sort_order')
        .executeTakeFirstOrThrow();
      plan = {
        ...base,
        id: randomUUID(),
        code: PLAN_CODE,
        name: 'Bench floating',
        is_public: 0,
        floating_seats: 5,
        floating_lease_minutes: 5,
        floating_borrow_days: 7,
      };
      await db.insertInto('plans').values(plan).execute();
    }
    const planId = plan.id;
    const user = await db.selectFrom('users').select('id').orderBy('created_at').executeTakeFirstOrThrow();
    const existing = await db
      .selectFrom('licenses')
      .select('license_key')
      .where('plan_id', '=', planId)
      .orderBy('id')
      .execute();
    const keys = existing.map((row) => row.license_key);
    const expiresAt = new Date(Date.now() + 365 * 86_400_000).toISOString();
    while (keys.length < licenses) {
      const rows = Array.from({ length: Math.min(BATCH, licenses - keys.length) }, () => ({
        id: randomUUID(),
        license_key: generateLicenseKey((bytes: Uint8Array) => randomFillSync(bytes)),
        user_id: user.id,
        plan_id: planId,
        subscription_id: null,
        status: 'active' as const,
        expires_at: expiresAt,
        max_activations: 5,
        base_owner_id: null,
        metadata: null,
        revoked_reason: null,
        revoked_at: null,
        suspended_reason: null,
        created_at: now,
        updated_at: now,
      }));
      await db.insertInto('licenses').values(rows).execute();
      keys.push(...rows.map((row) => row.license_key));
    }
    // The machine of each license: derived from its key, so a rerun checks the same machines out.
    return keys.slice(0, licenses).map((key) => ({
      license_key: key,
      hardware_id: `bench-floating-${key.replaceAll('-', '').slice(0, 20)}`,
    }));
  } finally {
    await db.destroy();
  }
}
