import { randomUUID } from 'node:crypto';
import { utc } from '../../../shared/dates.js';
import type { Clock } from '../../clock.js';
import type { Db, DbOrTransaction } from '../../db/database.js';
import type { ActivationRow, LicenseRow } from '../../db/tables.js';
import { conflict } from '../../http-error.js';
import type { RequestMeta } from '../../request-meta.js';
import { readLicensingSettings } from '../licensing/settings.js';
import { recordSecurityEvent, securityEventTypes } from '../security/security-events.js';

export interface Device {
  hardware_id: string;
  device_name?: string | undefined;
  platform?: string | undefined;
  app_version?: string | undefined;
}

/** How often a status check writes `last_seen_at`: enough for seat reclaim measured in days. */
export const HEARTBEAT_INTERVAL_MS = 60_000;

const deviceColumns = (device: Device) => ({
  ...(device.device_name === undefined ? {} : { device_name: device.device_name }),
  ...(device.platform === undefined ? {} : { platform: device.platform }),
  ...(device.app_version === undefined ? {} : { app_version: device.app_version }),
});

const machineHeldElsewhere = () =>
  conflict(
    'machine_activated_by_another_account',
    'This machine is already activated on this license by another account. Ask the license owner to free it.',
  );

const machines = (count: number) => `${count} machine${count === 1 ? '' : 's'}`;

/**
 * Takes the license's row lock: an update that changes nothing still locks the row on
 * PostgreSQL until the transaction ends (SQLite runs one write transaction at a time anyway),
 * so seat counting below cannot interleave with another activation of the same license.
 */
export async function lockLicense(trx: DbOrTransaction, licenseId: string): Promise<void> {
  await trx
    .updateTable('licenses')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', licenseId)
    .execute();
}

/** Frees the seats of machines unseen for longer than the configured window, oldest first. */
async function reclaimStaleSeats(
  trx: DbOrTransaction,
  license: LicenseRow,
  needed: number,
  now: Date,
  reclaimAfterDays: number | null,
): Promise<ActivationRow[]> {
  if (reclaimAfterDays === null || needed <= 0) return [];
  const cutoff = utc(now).subtract(reclaimAfterDays, 'day').toISOString();
  const stale = await trx
    .selectFrom('activations')
    .selectAll()
    .where('license_id', '=', license.id)
    .where('deactivated_at', 'is', null)
    .where('last_seen_at', '<', cutoff)
    .orderBy('last_seen_at')
    .limit(needed)
    .execute();
  if (stale.length === 0) return [];
  await trx
    .updateTable('activations')
    .set({ deactivated_at: now.toISOString(), deactivated_reason: 'reclaimed' })
    .where(
      'id',
      'in',
      stale.map((row) => row.id),
    )
    .execute();
  return stale;
}

export interface ActivationOutcome {
  activation: ActivationRow;
  /** False when the machine was already active: activating again changes nothing but the heartbeat. */
  created: boolean;
}

/**
 * Binds a machine to a license within its seat limit, for the account `userId`, which then holds
 * the seat. Activating the same machine again is idempotent (its seat passes to whoever activated
 * it last); a machine over the limit gets a 409 naming the limit, after stale seats have been
 * reclaimed if the window allows.
 */
export async function activateMachine(
  db: Db,
  clock: Clock,
  license: LicenseRow,
  device: Device,
  meta: RequestMeta | null,
  userId: string,
): Promise<ActivationOutcome> {
  const settings = await readLicensingSettings(db);
  const outcome = await db.transaction().execute(async (trx) => {
    await lockLicense(trx, license.id);
    const now = clock.now();
    const nowIso = now.toISOString();
    const existing = await trx
      .selectFrom('activations')
      .selectAll()
      .where('license_id', '=', license.id)
      .where('hardware_id', '=', device.hardware_id)
      .executeTakeFirst();
    if (existing && existing.deactivated_at === null) {
      // A seat stays with whoever took it. Another account that presents the same machine (the
      // owner aside, who sees every machine anyway) must not take it over, and with it the
      // holder's device name and the right to free it.
      if (existing.activated_by !== userId && license.user_id !== userId) throw machineHeldElsewhere();
      const activation = await trx
        .updateTable('activations')
        .set({ ...deviceColumns(device), last_seen_at: nowIso })
        .where('id', '=', existing.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { kind: 'activated' as const, activation, created: false };
    }
    const { used } = await trx
      .selectFrom('activations')
      .select((eb) => eb.fn.countAll<number | string>().as('used'))
      .where('license_id', '=', license.id)
      .where('deactivated_at', 'is', null)
      .executeTakeFirstOrThrow();
    const current = await trx
      .selectFrom('licenses')
      .select('max_activations')
      .where('id', '=', license.id)
      .executeTakeFirstOrThrow();
    const seats = current.max_activations;
    const reclaimed = await reclaimStaleSeats(
      trx,
      license,
      Number(used) + 1 - seats,
      now,
      settings.seat_reclaim_after_days,
    );
    if (Number(used) - reclaimed.length >= seats) return { kind: 'full' as const, used: Number(used), seats };

    const activation = existing
      ? await trx
          .updateTable('activations')
          .set({
            ...deviceColumns(device),
            activated_at: nowIso,
            last_seen_at: nowIso,
            deactivated_at: null,
            deactivated_reason: null,
            activated_by: userId,
          })
          .where('id', '=', existing.id)
          .returningAll()
          .executeTakeFirstOrThrow()
      : await trx
          .insertInto('activations')
          .values({
            id: randomUUID(),
            license_id: license.id,
            hardware_id: device.hardware_id,
            device_name: device.device_name ?? null,
            platform: device.platform ?? null,
            app_version: device.app_version ?? null,
            activated_at: nowIso,
            last_seen_at: nowIso,
            deactivated_at: null,
            deactivated_reason: null,
            activated_by: userId,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
    for (const seat of reclaimed) {
      await recordSecurityEvent(trx, clock, {
        type: securityEventTypes.seatReclaimed,
        severity: 'info',
        userId: license.user_id,
        actorId: userId,
        meta,
        details: { license_id: license.id, hardware_id: seat.hardware_id, last_seen_at: seat.last_seen_at },
      });
    }
    return { kind: 'activated' as const, activation, created: true };
  });

  if (outcome.kind === 'full') {
    const { used, seats } = outcome;
    await recordSecurityEvent(db, clock, {
      type: securityEventTypes.activationLimitReached,
      severity: 'warning',
      userId: license.user_id,
      actorId: userId,
      meta,
      details: { license_id: license.id, hardware_id: device.hardware_id, seats, used },
    });
    throw conflict(
      'activation_limit_reached',
      `This license is already active on ${used} of ${machines(seats)} allowed (seat limit ${seats}). ` +
        'Deactivate a machine you no longer use on the license page to free its seat, then try again.',
    );
  }
  return { activation: outcome.activation, created: outcome.created };
}

/** Records that a machine checked in, at most once per {@link HEARTBEAT_INTERVAL_MS}. */
export async function recordHeartbeat(
  db: DbOrTransaction,
  activation: ActivationRow,
  now: Date,
): Promise<ActivationRow> {
  if (now.getTime() - Date.parse(activation.last_seen_at) < HEARTBEAT_INTERVAL_MS) return activation;
  const last_seen_at = now.toISOString();
  await db.updateTable('activations').set({ last_seen_at }).where('id', '=', activation.id).execute();
  return { ...activation, last_seen_at };
}
