import type { z } from 'zod';
import type {
  AdminActivation,
  AdminLicense,
  adminLicenseListQuerySchema,
  createAdminLicenseRequestSchema,
  updateAdminLicenseRequestSchema,
} from '../../shared/api/admin.js';
import type { License } from '../../shared/api/licenses.js';
import type { Paged } from '../../shared/api/paging.js';
import { machinesPerSeat, seatsHeldByOrganisation } from './licenses-repository.js';
import { BASE_PLAN_CODE } from '../../shared/api/plans.js';
import { type Clock, isoNow } from '../platform/clock.js';
import type { Db, DbOrTransaction } from '../platform/db/database.js';
import { isUniqueViolation } from '../platform/db/errors.js';
import type { LicenseRow } from '../platform/db/tables.js';
import { badRequest, conflict, notFound } from '../platform/http-error.js';
import {
  activationsOfLicense,
  type AdministratorChanges,
  componentChangesOf,
  storedComponents,
  changeByAdministrator,
  changeTrialByAdministrator,
  countSeatsInUse,
  deactivateByAdministrator,
  findActivationOfLicense,
  findLicenseById,
  issueLicense,
  type LicensingEvents,
  lockLicense,
  renameMachine,
  resetDeactivations,
  revokeByAdministrator,
  toActivation,
  toLicenses,
  type TrialChange,
} from '../licensing/index.js';
import { findPlanRowByIdOrCode } from '../catalogue/index.js';
import { findUserById } from '../identity/index.js';
import { securityEventTypes } from '../platform/security-log/security-events.js';
import { type AdminActor, recordAdminAction } from '../platform/security-log/service.js';
import { emailsOfUsers, listAdminLicenses } from './licenses-repository.js';

type LicenseListQuery = z.output<typeof adminLicenseListQuerySchema>;
type CreateLicenseInput = z.output<typeof createAdminLicenseRequestSchema>;
type UpdateLicenseInput = z.output<typeof updateAdminLicenseRequestSchema>;

const licenseNotFound = () => notFound('license_not_found', 'License not found');
const planNotFound = (id: string) => notFound('plan_not_found', `No plan has the id ${id}`);
const expiryInPast = () =>
  badRequest(
    'expiry_in_past',
    'expires_at must be in the future. To stop a license now, suspend or revoke it.',
  );

/** Administrators' management of licenses (`/admin/licenses`). */
export function createAdminLicensesService({
  db,
  clock,
  events,
}: {
  db: Db;
  clock: Clock;
  /** Announces what an administrator did to a license (its webhooks and the owner's mail listen). */
  events: LicensingEvents;
}) {
  async function withEmails(trx: DbOrTransaction, rows: LicenseRow[], withActivations: boolean) {
    const licenses = await toLicenses(trx, rows, clock.now(), { withActivations });
    const emailOf = await emailsOfUsers(trx, [...new Set(rows.map((row) => row.user_id))]);
    const business = rows.filter((row) => row.organisation_id && row.seats);
    const heldOf = await seatsHeldByOrganisation(trx, [
      ...new Set(business.map((row) => row.organisation_id as string)),
    ]);
    const perSeatOf = await machinesPerSeat(trx, [...new Set(business.map((row) => row.plan_id))]);
    return rows.map((row, index): AdminLicense => {
      const bought = row.organisation_id && row.seats ? Number(row.seats) : null;
      return {
        ...(licenses[index] as License),
        user_id: row.user_id,
        user_email: emailOf.get(row.user_id) ?? null,
        seats:
          bought === null
            ? null
            : {
                bought,
                held: heldOf.get(row.organisation_id ?? '') ?? 0,
                machines_per_seat: perSeatOf.get(row.plan_id) ?? 1,
              },
      };
    });
  }

  async function detail(id: string, trx: DbOrTransaction = db): Promise<AdminLicense> {
    const row = await findLicenseById(trx, id);
    if (!row) throw licenseNotFound();
    return (await withEmails(trx, [row], true))[0] as AdminLicense;
  }

  async function plan(trx: DbOrTransaction, id: string) {
    const row = await findPlanRowByIdOrCode(trx, id);
    if (!row || row.archived_at) throw planNotFound(id);
    return row;
  }

  function assertFuture(expiresAt: string | null | undefined): void {
    if (expiresAt && expiresAt <= isoNow(clock)) throw expiryInPast();
  }

  return {
    async list(query: LicenseListQuery): Promise<Paged<AdminLicense>> {
      const page = await listAdminLicenses(db, query, isoNow(clock));
      return { ...page, data: await withEmails(db, page.data, false) };
    },

    get: (id: string) => detail(id),

    async create(actor: AdminActor, input: CreateLicenseInput): Promise<AdminLicense> {
      assertFuture(input.expires_at);
      const id = await db
        .transaction()
        .execute(async (trx) => {
          const owner = await findUserById(trx, input.user_id);
          if (!owner) throw notFound('user_not_found', 'User not found');
          const planRow = await plan(trx, input.plan_id);
          const row = await issueLicense(trx, clock, events, {
            userId: owner.id,
            plan: planRow,
            // The free Base license stays one per user, whoever issues it.
            baseOwnerId: planRow.code === BASE_PLAN_CODE ? owner.id : null,
            ...(input.expires_at === undefined ? {} : { expiresAt: input.expires_at }),
            ...(input.max_activations === undefined ? {} : { maxActivations: input.max_activations }),
          });
          await recordAdminAction(trx, clock, actor, {
            type: securityEventTypes.licenseCreated,
            severity: 'info',
            userId: owner.id,
            details: {
              license_id: row.id,
              plan: planRow.code,
              expires_at: row.expires_at,
              max_activations: row.max_activations,
            },
          });
          return row.id;
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error))
            throw conflict('base_license_exists', 'This user already has the free Base license');
          throw error;
        });
      return detail(id);
    },

    /**
     * Changes status (active or suspended), expiry, seats, plan or a perpetual license's update
     * window (a past moment ends it now). A revoked license is final
     * (issue a new one instead); fewer seats than machines in use is refused, under the same
     * row lock as activation, so no activation can slip in between the count and the change.
     */
    async update(actor: AdminActor, id: string, changes: UpdateLicenseInput): Promise<AdminLicense> {
      assertFuture(changes.expires_at);
      await db.transaction().execute(async (trx) => {
        await lockLicense(trx, id);
        const current = await findLicenseById(trx, id);
        if (!current) throw licenseNotFound();
        if (current.trial_ends_at !== null && changes.expires_at !== undefined)
          throw conflict(
            'license_is_trial',
            'This license is a free trial: extend or end the trial instead of changing its expiry.',
          );
        if (current.status === 'revoked') {
          throw conflict(
            'license_revoked',
            'This license is revoked, which is final. Issue a new license to the user instead.',
          );
        }
        const newPlan = changes.plan_id === undefined ? undefined : await plan(trx, changes.plan_id);
        const set: AdministratorChanges = {};
        if (changes.status !== undefined && changes.status !== current.status) set.status = changes.status;
        if (changes.expires_at !== undefined && changes.expires_at !== current.expires_at)
          set.expires_at = changes.expires_at;
        if (newPlan && newPlan.id !== current.plan_id) set.plan_id = newPlan.id;
        if (changes.updates_until !== undefined) {
          // Only a perpetual license has a window: anything else gets every update while it runs.
          if (current.updates_until === null)
            throw conflict(
              'license_without_update_window',
              'This license is not perpetual: it has no update window to change.',
            );
          if (changes.updates_until !== current.updates_until) set.updates_until = changes.updates_until;
        }
        // Moving to another plan takes its seat limit unless the administrator names one.
        const seats = changes.max_activations ?? (set.plan_id ? newPlan?.max_activations : undefined);
        if (seats !== undefined && seats !== current.max_activations) {
          const used = await countSeatsInUse(trx, id);
          if (used > seats) {
            throw conflict(
              'too_many_activations',
              `This license is active on ${used} machines, more than the ${seats} asked for. Deactivate ${used - seats} first.`,
            );
          }
          set.max_activations = seats;
        }
        if (Object.keys(set).length === 0) return;
        await changeByAdministrator(trx, events, id, set, isoNow(clock));
        await recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.licenseUpdated,
          severity: set.status === 'suspended' ? 'warning' : 'info',
          userId: current.user_id,
          details: {
            license_id: id,
            changes: Object.fromEntries(
              Object.entries(set).map(([field, to]) => [
                field,
                { from: current[field as keyof typeof set], to },
              ]),
            ),
          },
        });
      });
      return detail(id);
    },

    /** Extends or ends a license's free trial (see licensing's `changeTrialByAdministrator`). */
    async changeTrial(actor: AdminActor, id: string, change: TrialChange): Promise<AdminLicense> {
      await db.transaction().execute(async (trx) => {
        const { before, after } = await changeTrialByAdministrator(trx, clock, events, id, change);
        await recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.licenseUpdated,
          severity: 'info',
          userId: after.user_id,
          details: {
            license_id: id,
            changes: { trial_ends_at: { from: before.trial_ends_at, to: after.trial_ends_at } },
          },
        });
      });
      return detail(id);
    },

    /** Revokes a license for good, keeping the reason; the owner sees it on the license and in refused checks. */
    async revoke(actor: AdminActor, id: string, reason: string): Promise<AdminLicense> {
      await db.transaction().execute(async (trx) => {
        const now = isoNow(clock);
        const revoked = await revokeByAdministrator(trx, id, reason, now);
        if (!revoked) {
          if (await findLicenseById(trx, id)) {
            throw conflict('license_already_revoked', 'This license is already revoked');
          }
          throw licenseNotFound();
        }
        await recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.licenseRevoked,
          severity: 'warning',
          userId: revoked.user_id,
          details: { license_id: id, reason },
        });
        // The owner's mail follows the announcement (admin's `revoked-license-mail.ts`).
        await events.publish(trx, { type: 'license.revoked', license: revoked, byAdministrator: true });
      });
      return detail(id);
    },

    /** The machines, each with the components that changed while it kept its seat. */
    async activations(id: string): Promise<AdminActivation[]> {
      if (!(await findLicenseById(db, id))) throw licenseNotFound();
      const machines = await activationsOfLicense(db, id);
      const changes = await componentChangesOf(
        db,
        machines.map((machine) => machine.id),
      );
      return machines.map((machine) => ({
        ...toActivation(machine),
        components: storedComponents(machine),
        component_changes: (changes.get(machine.id) ?? []).map((change) => ({
          changed: JSON.parse(change.changed) as AdminActivation['component_changes'][number]['changed'],
          matched: change.matched,
          changed_at: change.changed_at,
        })),
      }));
    },

    /** Frees the seat of one machine (`deactivated_reason = 'admin'`); the machine is told so at its next check. */
    async deactivate(actor: AdminActor, id: string, activationId: string): Promise<AdminLicense> {
      await db.transaction().execute(async (trx) => {
        await lockLicense(trx, id);
        const license = await findLicenseById(trx, id);
        if (!license) throw licenseNotFound();
        const activation = await findActivationOfLicense(trx, id, { activationId });
        if (!activation) throw notFound('activation_not_found', 'This license has no such activation');
        if (activation.deactivated_at !== null) {
          throw conflict('activation_not_active', 'This machine is already deactivated');
        }
        const at = isoNow(clock);
        await deactivateByAdministrator(trx, events, activation, license.user_id, at);
        await recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.activationDeactivated,
          severity: 'info',
          userId: license.user_id,
          details: {
            license_id: id,
            activation_id: activationId,
            hardware_id: activation.hardware_id,
            device_name: activation.device_name,
          },
        });
      });
      return detail(id);
    },

    /**
     * Forgives the deactivations a license counted against its plan's cap (a security event with the
     * administrator's reason), so its customer may free machines again at once.
     */
    async resetDeactivations(actor: AdminActor, id: string, reason: string): Promise<AdminLicense> {
      await db.transaction().execute(async (trx) => {
        await lockLicense(trx, id);
        const license = await findLicenseById(trx, id);
        if (!license) throw licenseNotFound();
        const forgiven = await resetDeactivations(trx, id, clock.now());
        await recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.deactivationsReset,
          severity: 'warning',
          userId: license.user_id,
          details: { license_id: id, reason, forgiven },
        });
      });
      return detail(id);
    },

    /** Names a machine of any license (null drops the name), as its owner may; recorded as an admin action. */
    async renameActivation(
      actor: AdminActor,
      id: string,
      activationId: string,
      label: string | null,
    ): Promise<AdminLicense> {
      await db.transaction().execute(async (trx) => {
        const license = await findLicenseById(trx, id);
        if (!license) throw licenseNotFound();
        const activation = await findActivationOfLicense(trx, id, { activationId });
        if (!activation) throw notFound('activation_not_found', 'This license has no such activation');
        if (activation.label === label) return;
        await renameMachine(trx, activationId, label);
        await recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.activationRenamed,
          severity: 'info',
          userId: license.user_id,
          details: {
            license_id: id,
            activation_id: activationId,
            hardware_id: activation.hardware_id,
            from: activation.label,
            to: label,
          },
        });
      });
      return detail(id);
    },
  };
}

export type AdminLicensesService = ReturnType<typeof createAdminLicensesService>;
