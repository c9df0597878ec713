import type { LicensingEvents } from '../events.js';
import { randomUUID } from 'node:crypto';
import type { ActivateSeatRequest, ActivationResult } from '../../../shared/api/licenses.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';
import { conflict, forbidden, notFound } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import type { LeaseSigner } from '../leases/lease-signer.js';
import { organisationNotFound } from '../organisations/access.js';
import {
  findMembership,
  findOrganisationLicense,
  lockOrganisation,
} from '../organisations/seats-repository.js';
import { findPlanRow } from '../../catalogue/index.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { floatingTermsOfPlan } from '../floating/repository.js';
import { createLicenseAccess } from './access.js';
import { deviceColumns, machines } from './activation-service.js';
import { leaseFor } from './lease.js';
import { issueSeatKey } from './seat-keys.js';
import {
  countMachinesOfMember,
  getOrganisationName,
  insertActivation,
  lockLicense,
  updateActivation,
} from './repository.js';
import { toActivation, toLicense } from './views.js';
import {
  componentsText,
  DEFAULT_FINGERPRINT_THRESHOLD,
  keepRecognised,
  resolveMachine,
} from './fingerprints.js';

/**
 * Members of an organisation activate a machine on their seat by being signed in: they never type
 * or see the organisation's key, and each may use as many machines as the plan gives a seat.
 */
export function createSeatActivationService({
  db,
  clock,
  events,
  leases,
}: {
  db: Db;
  clock: Clock;
  /** Announces the machines activated on seats. */
  events: LicensingEvents;
  leases: LeaseSigner;
}) {
  const access = createLicenseAccess({ db, clock });

  return {
    /**
     * Activates the caller's machine on their seat of the organisation's license, idempotent per
     * machine. Decided under the organisation's lock (a seat taken back meanwhile is seen) and the
     * license's (two machines of the member at once cannot both take the last place).
     */
    async activateSeat(
      user: UserRow,
      organisationId: string,
      device: ActivateSeatRequest,
      meta: RequestMeta | null,
    ): Promise<ActivationResult & { created: boolean }> {
      const outcome = await db.transaction().execute(async (trx) => {
        if (!(await lockOrganisation(trx, organisationId))) throw organisationNotFound();
        const membership = await findMembership(trx, organisationId, user.id);
        // An outsider learns nothing of the organisation; a platform administrator may see it but
        // holds no seat unless they are a member with one.
        if (!membership && user.role !== 'admin') throw organisationNotFound();
        const name = await getOrganisationName(trx, organisationId);
        const license = await findOrganisationLicense(trx, organisationId);
        // A floating pool runs no machine on an activation, and needs no named seat: its members'
        // machines take a seat as they run (`POST /organisations/{id}/floating/checkout`).
        if (license && (await floatingTermsOfPlan(trx, license.plan_id)))
          throw conflict(
            'license_floating',
            `${name}'s license has floating seats: this machine takes one when the app runs, with no activation.`,
          );
        if (!membership?.seat_assigned_at) {
          throw forbidden(
            'no_seat',
            `You do not hold a seat in ${name}. Ask ${name}'s administrators to assign you one, then try again.`,
          );
        }
        if (!license) {
          throw notFound('license_not_found', `${name} has no license yet. Ask its administrators.`);
        }
        access.assertActive(license);

        await lockLicense(trx, license.id);
        const now = clock.now().toISOString();
        const plan = await findPlanRow(trx, license.plan_id);
        // Known again as a personal license's machine is: by hardware id, then by enough of its
        // components (a replaced disk keeps its seat, the change in its history); a cloned VM with
        // the same machine id is another machine, kept under an id of its own.
        const machine = await resolveMachine(
          trx,
          license.id,
          device.hardware_id,
          device.components,
          plan?.fingerprint_threshold ?? DEFAULT_FINGERPRINT_THRESHOLD,
        );
        const existing = machine.existing
          ? await keepRecognised(trx, machine.existing, device, machine.comparison, now)
          : undefined;
        if (existing && existing.deactivated_at === null) {
          // The machine is on someone's seat: the member's own again is a repeat, another member's
          // stays theirs until they free it.
          if (existing.activated_by !== user.id) {
            throw conflict(
              'machine_activated_by_another_account',
              `This machine is already activated on another member's seat in ${name}. They can free it on their Licenses page.`,
            );
          }
          const activation = await updateActivation(trx, existing.id, {
            ...deviceColumns(device),
            last_seen_at: now,
          });
          const seatKey = await issueSeatKey(trx, clock, activation.id);
          return { kind: 'activated' as const, license, name, activation, seatKey, created: false };
        }

        const perSeat = plan?.max_activations ?? 1;
        const used = await countMachinesOfMember(trx, license.id, user.id);
        if (used >= perSeat) return { kind: 'full' as const, license, name, used, perSeat };

        const fields = {
          device_name: device.device_name ?? null,
          platform: device.platform ?? null,
          app_version: device.app_version ?? null,
          activated_at: now,
          last_seen_at: now,
          deactivated_at: null,
          deactivated_reason: null,
          activated_by: user.id,
        };
        const activation = existing
          ? await updateActivation(trx, existing.id, fields)
          : await insertActivation(trx, {
              id: randomUUID(),
              license_id: license.id,
              hardware_id: machine.hardwareId,
              components: device.components ? componentsText(device.components) : null,
              label: null,
              ...fields,
            });
        await events.publish(trx, {
          type: 'activation.created',
          activation: activation,
          userId: license.user_id,
        });
        const seatKey = await issueSeatKey(trx, clock, activation.id);
        return { kind: 'activated' as const, license, name, activation, seatKey, created: true };
      });

      if (outcome.kind === 'full') {
        const { license, name, used, perSeat } = outcome;
        await recordSecurityEvent(db, clock, {
          type: securityEventTypes.activationLimitReached,
          severity: 'warning',
          userId: user.id,
          actorId: user.id,
          meta,
          details: {
            organisation_id: organisationId,
            license_id: license.id,
            hardware_id: device.hardware_id,
            seats: perSeat,
            used,
          },
        });
        throw conflict(
          'seat_machine_limit',
          `Your seat in ${name} is already active on ${used} of ${machines(perSeat)} allowed. ` +
            'Deactivate a machine you no longer use on the Licenses page, then try again.',
        );
      }

      const { license: row, name, activation, seatKey, created } = outcome;
      const license = await toLicense(db, row, clock.now(), { withActivations: true, viewerId: user.id });
      const seat = { organisation_id: organisationId, organisation_name: name, user_id: user.id };
      // The lease binds to the key the machine checks with: its seat key, not the organisation's.
      const signed = await leaseFor(
        leases,
        { ...row, license_key: seatKey },
        activation.hardware_id,
        license,
        seat,
      );
      return {
        ...license,
        // The app checks the license with a key and the machine: this machine's own seat key, so
        // a member never holds the organisation's (with it and a hardware id anyone could check).
        license_key: seatKey,
        activation: toActivation(activation),
        lease: signed.lease,
        lease_expires_at: signed.expiresAt,
        message: created
          ? 'This machine is now activated on your seat'
          : 'This machine was already activated',
        created,
      };
    },
  };
}

export type SeatActivationService = ReturnType<typeof createSeatActivationService>;
