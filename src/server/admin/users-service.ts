import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type {
  AdminUser,
  AdminUserDetail,
  adminUserListQuerySchema,
  createAdminUserRequestSchema,
  updateAdminUserRequestSchema,
} from '../../shared/api/admin.js';
import type { Paged } from '../../shared/api/paging.js';
import { defaultPreferences } from '../../shared/api/users.js';
import { type Clock, isoNow } from '../platform/clock.js';
import type { Db, DbOrTransaction } from '../platform/db/database.js';
import { isUniqueViolation, refuseDuplicate } from '../platform/db/errors.js';
import type { UserRow, UserUpdate } from '../platform/db/tables.js';
import { badRequest, conflict, notFound } from '../platform/http-error.js';
import type { Mailer } from '../platform/mail/mailer.js';
import { mailKinds } from '../platform/mail/templates.js';
import {
  accountFields,
  assertAcceptableNewPassword,
  changeAccountByAdministrator,
  createAccountByAdministrator,
  deleteAccountByAdministrator,
  findUserByEmail,
  findUserById,
  type PasswordHasher,
  secondFactorsOf,
} from '../identity/index.js';
import { securityEventTypes } from '../platform/security-log/security-events.js';
import { type AdminActor, recordAdminAction } from '../platform/security-log/service.js';
import {
  countLicensesOfUser,
  countsOfUser,
  findAdminUser,
  listAdminUsers,
  type ListedUser,
} from './users-repository.js';
import { assertAnotherAdminRemains } from './admin-roster.js';

type UserListQuery = z.output<typeof adminUserListQuerySchema>;
type CreateUserInput = z.output<typeof createAdminUserRequestSchema>;
type UpdateUserInput = z.output<typeof updateAdminUserRequestSchema>;

const userNotFound = () => notFound('user_not_found', 'User not found');
const emailTaken = (email: string) =>
  conflict('email_taken', `Another account already uses the e-mail address ${email}`);
const ownAccount = (what: string) =>
  badRequest('own_account', `You cannot ${what} your own account. Ask another administrator to do it.`);

const toAdminUser = (row: ListedUser): AdminUser => ({
  ...accountFields(row),
  last_sign_in_at: row.last_sign_in_at,
});

/** Administrators' management of accounts (`/admin/users`). */
export function createAdminUsersService({
  db,
  clock,
  passwords,
  mailer,
}: {
  db: Db;
  clock: Clock;
  passwords: PasswordHasher;
  mailer: Mailer;
}) {
  async function detail(id: string, trx: DbOrTransaction = db): Promise<AdminUserDetail> {
    const row = await findAdminUser(trx, id);
    if (!row) throw userNotFound();
    const [counts, factors] = await Promise.all([countsOfUser(trx, id), secondFactorsOf(trx, id)]);
    return {
      ...toAdminUser(row),
      email_verified_at: row.email_verified_at,
      second_factors: { authenticator_app: factors.totp, passkeys: factors.passkeys },
      counts,
    };
  }

  return {
    async list(query: UserListQuery): Promise<Paged<AdminUser>> {
      const page = await listAdminUsers(db, query);
      return { ...page, data: page.data.map(toAdminUser) };
    },

    get: (id: string) => detail(id),

    async create(actor: AdminActor, input: CreateUserInput): Promise<AdminUserDetail> {
      assertAcceptableNewPassword(input.password, input.email);
      // Refused before paying for a hash; the unique index settles a race below.
      if (await findUserByEmail(db, input.email)) throw emailTaken(input.email);
      const now = isoNow(clock);
      const row: UserRow = {
        id: randomUUID(),
        email: input.email,
        password_hash: await passwords.hash(input.password),
        role: input.role,
        status: input.status,
        full_name: input.full_name ?? null,
        company: input.company ?? null,
        preferences: JSON.stringify(defaultPreferences),
        email_verified_at: input.email_verified ? now : null,
        password_changed_at: null,
        session_version: 0,
        created_at: now,
        updated_at: now,
        deletion_due_at: null,
        erased_at: null,
      };
      await refuseDuplicate(
        () =>
          db.transaction().execute(async (trx) => {
            await createAccountByAdministrator(trx, row);
            await recordAdminAction(trx, clock, actor, {
              type: securityEventTypes.userCreated,
              severity: input.role === 'admin' ? 'warning' : 'info',
              userId: row.id,
              details: {
                email: row.email,
                role: row.role,
                status: row.status,
                email_verified: input.email_verified,
              },
            });
          }),
        () => emailTaken(input.email),
      );
      return detail(row.id);
    },

    /**
     * Changes an account. A role change or disabling ends the user's sessions and access
     * tokens at once; the last active administrator cannot be demoted or disabled, and nobody
     * can demote or disable themselves.
     */
    async update(actor: AdminActor, id: string, changes: UpdateUserInput): Promise<AdminUserDetail> {
      if (id === actor.id && changes.role !== undefined && changes.role !== 'admin')
        throw ownAccount('demote');
      if (id === actor.id && changes.status === 'disabled') throw ownAccount('disable');
      try {
        await db.transaction().execute(async (trx) => {
          let current = await findUserById(trx, id);
          if (!current) throw userNotFound();
          const removesAdmin = (row: UserRow) =>
            row.role === 'admin' &&
            row.status === 'active' &&
            ((changes.role !== undefined && changes.role !== 'admin') || changes.status === 'disabled');
          if (removesAdmin(current)) {
            await assertAnotherAdminRemains(trx, id, actor.id);
            // Read again under the lock: a concurrent change may have committed meanwhile.
            current = await findUserById(trx, id);
            if (!current) throw userNotFound();
          }
          const before = current;
          const now = isoNow(clock);
          const set: UserUpdate = {};
          if (changes.email !== undefined && changes.email !== before.email) {
            const holder = await findUserByEmail(trx, changes.email);
            if (holder && holder.id !== id) throw emailTaken(changes.email);
            set.email = changes.email;
          }
          if (changes.full_name !== undefined && changes.full_name !== before.full_name)
            set.full_name = changes.full_name;
          if (changes.company !== undefined && changes.company !== before.company)
            set.company = changes.company;
          if (changes.role !== undefined && changes.role !== before.role) set.role = changes.role;
          if (changes.status !== undefined && changes.status !== before.status) set.status = changes.status;
          if (
            changes.email_verified !== undefined &&
            changes.email_verified !== (before.email_verified_at !== null)
          ) {
            set.email_verified_at = changes.email_verified ? now : null;
          }
          if (Object.keys(set).length === 0) return;
          // Identity ends the user's sessions with it when the role changes or the account is disabled.
          await changeAccountByAdministrator(trx, clock, id, { ...set, updated_at: now });

          const roleChanged = set.role !== undefined;
          const disabled = set.status === 'disabled';
          if (roleChanged) {
            await recordAdminAction(trx, clock, actor, {
              type: securityEventTypes.roleChanged,
              severity: set.role === 'admin' ? 'critical' : 'warning',
              userId: id,
              details: { email: before.email, from: before.role, to: set.role },
            });
          }
          if (disabled) {
            await recordAdminAction(trx, clock, actor, {
              type: securityEventTypes.userDisabled,
              severity: 'warning',
              userId: id,
              details: { email: before.email },
            });
          }
          const others = Object.keys(set).filter(
            (field) => field !== 'role' && !(field === 'status' && disabled),
          );
          if (others.length > 0) {
            await recordAdminAction(trx, clock, actor, {
              type: securityEventTypes.userUpdated,
              severity: 'info',
              userId: id,
              details: {
                email: before.email,
                changes: Object.fromEntries(
                  others.map((field) => [
                    field,
                    { from: before[field as keyof UserRow], to: set[field as keyof UserUpdate] },
                  ]),
                ),
              },
            });
          }
        });
      } catch (error) {
        if (isUniqueViolation(error) && changes.email !== undefined) throw emailTaken(changes.email);
        throw error;
      }
      return detail(id);
    },

    /**
     * Sends the account a new confirmation link, through the outbox as at sign-up (the link is made
     * when the mail is sent). Refused with 409 for a confirmed or disabled account: it gets no link.
     */
    async resendConfirmation(actor: AdminActor, id: string): Promise<{ message: string }> {
      await db.transaction().execute(async (trx) => {
        const current = await findUserById(trx, id);
        if (!current) throw userNotFound();
        if (current.email_verified_at !== null)
          throw conflict('email_already_confirmed', 'This account’s e-mail address is already confirmed');
        if (current.status !== 'active')
          throw conflict(
            'account_disabled',
            'This account is disabled: enable it before sending a confirmation link',
          );
        await mailer.queueRequest(trx, { kind: mailKinds.verification, to: current.email });
        await recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.confirmationMailResent,
          severity: 'info',
          userId: id,
          details: { email: current.email },
        });
      });
      return { message: 'A new confirmation link is on its way to the account’s e-mail address' };
    },

    /**
     * Deletes an account with its sessions, licenses, activations and usage (the database
     * cascades). Payments are kept: they are the record of money received. The security log
     * keeps the e-mail in the event's details.
     */
    async remove(actor: AdminActor, id: string): Promise<void> {
      if (id === actor.id) throw ownAccount('delete');
      await db.transaction().execute(async (trx) => {
        const current = await findUserById(trx, id);
        if (!current) throw userNotFound();
        if (current.role === 'admin' && current.status === 'active') {
          await assertAnotherAdminRemains(trx, id, actor.id);
        }
        const licenses = await countLicensesOfUser(trx, id);
        if (!(await deleteAccountByAdministrator(trx, id))) throw userNotFound();
        await recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.userDeleted,
          severity: 'warning',
          userId: id,
          details: {
            email: current.email,
            role: current.role,
            full_name: current.full_name,
            licenses_deleted: licenses,
          },
        });
      });
    },
  };
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
