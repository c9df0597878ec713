import type { LicensingEvents } from '../events.js';
import { randomUUID } from 'node:crypto';
import type {
  ActivateBaseLicenseRequest,
  ActivateLicenseRequest,
  ActivationResult,
} from '../../../shared/api/licenses.js';
import { utc } from '../../../shared/dates.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { ActivationRow, LicenseRow, UserRow } from '../../platform/db/tables.js';
import { conflict, forbidden, notFound } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import type { LeaseSigner } from '../leases/lease-signer.js';
import { readLicensingSettings } from '../leases/repository.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { createLicenseAccess, licenseNotFound } from './access.js';
import { ensureBaseLicense } from './issue.js';
import { leaseFor } from './lease.js';
import {
  countSeatsInUse,
  deactivateActivation,
  findActivationOfLicense,
  findLicenseById,
  findOrganisationName,
  hasActivatedOn,
  insertActivation,
  lockLicense,
  reclaimActivations,
  seatLimitOf,
  staleActivations,
  updateActivation,
} from './repository.js';
import { countDeactivation, deactivationLimitReached } from './deactivation-cap.js';
import { toActivation, toLicense } from './views.js';
import {
  componentsText,
  DEFAULT_FINGERPRINT_THRESHOLD,
  keepRecognised,
  resolveMachine,
} from './fingerprints.js';
import type { FingerprintComponents } from '../../../shared/fingerprint.js';
import { findPlanRow } from '../../catalogue/index.js';

export interface Device {
  hardware_id: string;
  device_name?: string | undefined;
  platform?: string | undefined;
  app_version?: string | undefined;
  /** Hashed parts of the machine's fingerprint; older apps send none. */
  components?: FingerprintComponents | undefined;
}

/** The device's reported fields that were sent, to update a machine's row with. */
export const deviceColumns = (device: Device) => ({
  ...(device.device_name === undefined ? {} : { device_name: device.device_name }),
  ...(device.platform === undefined ? {} : { platform: device.platform }),
  ...(device.app_version === undefined ? {} : { app_version: device.app_version }),
});

const machineHeldElsewhere = () =>
  conflict(
    'machine_activated_by_another_account',
    'This machine is already activated on this license by another account. Ask the license owner to free it.',
  );

/**
 * A floating license runs no machine on an activation: its machines take a seat of the pool as
 * the app runs (`/licensing/floating/checkout`), so a node-locked seat beside the pool would be a
 * machine more than the plan allows. Worded as an organisation's floating pool refuses it.
 */
const licenseFloating = () =>
  conflict(
    'license_floating',
    'This license has floating seats: this machine takes one when the app runs, with no activation.',
  );

export const machines = (count: number) => `${count} machine${count === 1 ? '' : 's'}`;

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
  const stale = await staleActivations(trx, license.id, cutoff, needed);
  await reclaimActivations(
    trx,
    stale.map((row) => row.id),
    now.toISOString(),
  );
  return stale;
}

/** Binding machines to licenses and freeing their seats, by the accounts that use them. */
export function createActivationService({
  db,
  clock,
  events,
  leases,
}: {
  db: Db;
  clock: Clock;
  /** Announces machines activated and deactivated, and Base licenses issued on first use. */
  events: LicensingEvents;
  leases: LeaseSigner;
}) {
  const access = createLicenseAccess({ db, clock });

  /**
   * A machine took the license's last seat: announced (`license.machine_limit_reached`) and kept in
   * the security log for administrators, in the activation's transaction.
   */
  async function announceMachineLimit(
    trx: DbOrTransaction,
    license: LicenseRow,
    activation: ActivationRow,
    limit: number,
    actorId: string,
    meta: RequestMeta | null,
  ): Promise<void> {
    const machines = { hardware_id: activation.hardware_id, limit, used: limit };
    await events.publish(trx, { type: 'license.machine_limit_reached', license, machines });
    await recordSecurityEvent(trx, clock, {
      type: securityEventTypes.machineLimitReached,
      severity: 'info',
      userId: license.user_id,
      actorId,
      meta,
      details: { license_id: license.id, ...machines },
    });
  }

  /**
   * Binds a machine to a license within its seat limit, for the account `userId`, which then holds
   * the seat. Activating the same machine again is idempotent (its seat passes to whoever activated
   * it last); a machine over the limit gets a 409 naming the limit, after stale seats have been
   * reclaimed if the window allows.
   */
  async function activateMachine(
    license: LicenseRow,
    device: Device,
    meta: RequestMeta | null,
    userId: string,
  ): Promise<{ activation: ActivationRow; created: boolean }> {
    const settings = await readLicensingSettings(db);
    const outcome = await db.transaction().execute(async (trx) => {
      await lockLicense(trx, license.id);
      const now = clock.now();
      const nowIso = now.toISOString();
      const plan = await findPlanRow(trx, license.plan_id);
      // Read under the license's lock, so a plan made floating meanwhile is seen.
      if (plan && plan.floating_seats !== null) throw licenseFloating();
      const machine = await resolveMachine(
        trx,
        license.id,
        device.hardware_id,
        device.components,
        plan?.fingerprint_threshold ?? DEFAULT_FINGERPRINT_THRESHOLD,
      );
      const existing = machine.existing
        ? await keepRecognised(trx, machine.existing, device, machine.comparison, nowIso)
        : undefined;
      if (existing && existing.deactivated_at === null) {
        // A seat stays with whoever took it. Another account that presents the same machine (the
        // owner aside, who sees every machine anyway) must not take it over, and with it the
        // holder's device name and the right to free it.
        if (existing.activated_by !== userId && license.user_id !== userId) throw machineHeldElsewhere();
        const activation = await updateActivation(trx, existing.id, {
          ...deviceColumns(device),
          last_seen_at: nowIso,
        });
        return { kind: 'activated' as const, activation, created: false };
      }
      const used = await countSeatsInUse(trx, license.id);
      const seats = await seatLimitOf(trx, license.id);
      const reclaimed = await reclaimStaleSeats(
        trx,
        license,
        used + 1 - seats,
        now,
        settings.seat_reclaim_after_days,
      );
      if (used - reclaimed.length >= seats) return { kind: 'full' as const, used, seats };

      const activation = existing
        ? await updateActivation(trx, existing.id, {
            ...deviceColumns(device),
            activated_at: nowIso,
            last_seen_at: nowIso,
            deactivated_at: null,
            deactivated_reason: null,
            activated_by: userId,
          })
        : await insertActivation(trx, {
            id: randomUUID(),
            license_id: license.id,
            hardware_id: machine.hardwareId,
            components: device.components ? componentsText(device.components) : null,
            device_name: device.device_name ?? null,
            platform: device.platform ?? null,
            app_version: device.app_version ?? null,
            activated_at: nowIso,
            last_seen_at: nowIso,
            deactivated_at: null,
            deactivated_reason: null,
            activated_by: userId,
            label: null,
          });
      await events.publish(trx, {
        type: 'activation.created',
        activation: activation,
        userId: license.user_id,
      });
      const nowUsed = used - reclaimed.length + 1;
      if (nowUsed === seats) await announceMachineLimit(trx, license, activation, seats, userId, meta);
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

  async function activationResult(
    row: LicenseRow,
    activation: ActivationRow,
    created: boolean,
    user: UserRow,
    presentedHardwareId: string,
  ): Promise<ActivationResult & { created: boolean }> {
    const license = await toLicense(db, row, clock.now(), { withActivations: true, viewerId: user.id });
    // The lease binds to the id the machine presents, which a cloned machine's row is not kept under.
    const signed = await leaseFor(leases, row, presentedHardwareId, license);
    return {
      ...license,
      activation: toActivation(activation),
      lease: signed.lease,
      lease_expires_at: signed.expiresAt,
      message: created ? 'This machine is now activated' : 'This machine was already activated',
      created,
    };
  }

  /**
   * An organisation's key is not for typing: its members activate on their seats by signing in,
   * which is how the organisation knows whose machine is whose.
   */
  async function refuseOrganisationKey(row: LicenseRow): Promise<void> {
    if (row.organisation_id === null) return;
    const organisationName = await findOrganisationName(db, row.organisation_id);
    throw forbidden(
      'activate_by_sign_in',
      `This is ${organisationName ?? 'an organization'}'s license: sign in with the account you were invited with and choose Activate on this machine.`,
    );
  }

  async function activateOn(row: LicenseRow, device: Device, user: UserRow, meta: RequestMeta | null) {
    access.assertActive(row);
    const { activation, created } = await activateMachine(row, device, meta, user.id);
    return activationResult(row, activation, created, user, device.hardware_id);
  }

  /**
   * A machine the user may manage: any machine of the user's own license, or one the user
   * activated with a key its owner shared. Someone else's license, or machine, reads as not found.
   */
  async function machineOf(
    user: UserRow,
    id: string,
    target: { activationId: string } | { hardwareId: string },
  ): Promise<{ row: LicenseRow; activation: ActivationRow }> {
    const row = await findLicenseById(db, id);
    const owned = row?.user_id === user.id;
    if (!row || (!owned && !(await hasActivatedOn(db, row.id, user.id)))) throw licenseNotFound();
    const activation = await findActivationOfLicense(db, row.id, target, owned ? undefined : user.id);
    if (!activation) throw notFound('activation_not_found', 'This machine is not activated on this license');
    return { row, activation };
  }

  return {
    /**
     * Any signed-in holder of a key may activate a machine on it: team members share their owner's
     * key. The answer shows them their own machines only, never the owner's account or machines.
     */
    async activate(user: UserRow, body: ActivateLicenseRequest, meta: RequestMeta | null) {
      const row = await access.byKey(body.license_key);
      await refuseOrganisationKey(row);
      return activateOn(row, body, user, meta);
    },

    /** Activates a machine on a license just issued to the user (a free trial's). */
    activateIssued: activateOn,

    async activateBase(user: UserRow, body: ActivateBaseLicenseRequest, meta: RequestMeta | null) {
      return activateOn((await ensureBaseLicense(db, clock, events, user.id)).row, body, user, meta);
    },

    /**
     * Frees the seat of one machine: any machine of the user's own license, or one the user
     * activated with a key its owner shared. Another account's machine reads as not activated.
     */
    async deactivate(
      user: UserRow,
      id: string,
      target: { hardware_id?: string | undefined; activation_id?: string | undefined },
    ) {
      const { row, activation } = await machineOf(
        user,
        id,
        target.activation_id
          ? { activationId: target.activation_id }
          : { hardwareId: target.hardware_id ?? '' },
      );
      if (activation.deactivated_at === null) {
        const now = clock.now();
        const at = now.toISOString();
        const refused = await db.transaction().execute(async (trx) => {
          await lockLicense(trx, row.id);
          // Under the lock: a machine freed meanwhile is not freed (nor counted) twice.
          const current = await findActivationOfLicense(trx, row.id, { activationId: activation.id });
          if (current?.deactivated_at !== null) return null;
          const capped = await countDeactivation(trx, row, activation, now);
          if (capped) return capped;
          await deactivateActivation(trx, activation.id, at, 'user');
          await events.publish(trx, {
            type: 'activation.deleted',
            activation: { ...activation, deactivated_at: at, deactivated_reason: 'user' },
            userId: row.user_id,
          });
          return null;
        });
        if (refused) {
          await db.transaction().execute(async (trx) => {
            await recordSecurityEvent(trx, clock, {
              type: securityEventTypes.deactivationLimitReached,
              severity: 'warning',
              userId: row.user_id,
              actorId: user.id,
              meta: null,
              details: { license_id: row.id, hardware_id: activation.hardware_id, ...refused },
            });
            await events.publish(trx, {
              type: 'license.deactivation_limit_reached',
              license: row,
              machines: {
                hardware_id: activation.hardware_id,
                limit: refused.limit,
                used: refused.used,
                next_possible_at: refused.next_possible_at,
              },
            });
          });
          throw deactivationLimitReached(refused);
        }
      }
      return toLicense(db, row, clock.now(), { withActivations: true, viewerId: user.id });
    },

    /**
     * Names a machine (null drops the name): the owner names any machine of the license, someone
     * who activated with a shared key only their own. Another account's machine reads as not found.
     * The name outlives deactivation and a later activation of the same machine.
     */
    async rename(user: UserRow, id: string, activationId: string, label: string | null) {
      const { row, activation } = await machineOf(user, id, { activationId });
      if (activation.label !== label) await updateActivation(db, activation.id, { label });
      return toLicense(db, row, clock.now(), { withActivations: true, viewerId: user.id });
    },
  };
}

export type ActivationService = ReturnType<typeof createActivationService>;
