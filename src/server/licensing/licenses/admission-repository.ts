import type { DbOrTransaction } from '../../platform/db/database.js';
import type { ActivationRow, LicenseRow } from '../../platform/db/tables.js';
import type { HeldFloatingSeat } from './check-repository.js';

/** A license as the update feed's admission reads it: what the check's rule and refusals need. */
export type AdmissionLicense = Pick<
  LicenseRow,
  | 'id'
  | 'status'
  | 'expires_at'
  | 'trial_ends_at'
  | 'paused_until'
  | 'revoked_reason'
  | 'suspended_reason'
  | 'updates_until'
> & {
  organisation_name: string | null;
  /** The plan's fingerprint threshold: how many components must match for a machine to be known. */
  fingerprint_threshold: number;
};

function licenses(db: DbOrTransaction) {
  return db
    .selectFrom('licenses')
    .innerJoin('plans', 'plans.id', 'licenses.plan_id')
    .leftJoin('organisations', 'organisations.id', 'licenses.organisation_id')
    .select([
      'licenses.id',
      'licenses.status',
      'licenses.expires_at',
      'licenses.trial_ends_at',
      'licenses.paused_until',
      'licenses.revoked_reason',
      'licenses.suspended_reason',
      'licenses.updates_until',
      'organisations.name as organisation_name',
      'plans.fingerprint_threshold',
    ]);
}

export const admissionLicenseByKey = (db: DbOrTransaction, key: string) =>
  licenses(db).where('licenses.license_key', '=', key).executeTakeFirst();

export const admissionLicenseById = (db: DbOrTransaction, id: string) =>
  licenses(db).where('licenses.id', '=', id).executeTakeFirst();

export const activationById = (db: DbOrTransaction, id: string): Promise<ActivationRow | undefined> =>
  db.selectFrom('activations').selectAll().where('id', '=', id).executeTakeFirst();

/** The machine whose seat key has this hash (the key names one activation, whatever its state). */
export const activationBySeatKeyHash = (
  db: DbOrTransaction,
  keyHash: string,
): Promise<ActivationRow | undefined> =>
  db
    .selectFrom('seat_keys')
    .innerJoin('activations', 'activations.id', 'seat_keys.activation_id')
    .selectAll('activations')
    .where('seat_keys.key_hash', '=', keyHash)
    .executeTakeFirst();

const heldSeats = (db: DbOrTransaction, now: string) =>
  db
    .selectFrom('floating_seats')
    .innerJoin('licenses', 'licenses.id', 'floating_seats.license_id')
    .innerJoin('plans', 'plans.id', 'licenses.plan_id')
    .select([
      'floating_seats.id',
      'floating_seats.license_id',
      'floating_seats.hardware_id',
      'floating_seats.device_name',
      'floating_seats.holds_until',
      'floating_seats.borrowed_until',
    ])
    .where('floating_seats.holds_until', '>', now)
    .where('plans.floating_seats', 'is not', null);

/** The seat the machine holds on the license at `now`, while its plan is floating (the check's read). */
export const heldFloatingSeat = (
  db: DbOrTransaction,
  licenseId: string,
  hardwareId: string,
  now: string,
): Promise<HeldFloatingSeat | undefined> =>
  heldSeats(db, now)
    .where('floating_seats.license_id', '=', licenseId)
    .where('floating_seats.hardware_id', '=', hardwareId)
    .executeTakeFirst();

/** The seat by its id while it is held at `now` on a floating plan, with its license's id. */
export const heldFloatingSeatById = (
  db: DbOrTransaction,
  seatId: string,
  now: string,
): Promise<(HeldFloatingSeat & { license_id: string }) | undefined> =>
  heldSeats(db, now).where('floating_seats.id', '=', seatId).executeTakeFirst();

/** A member machine's floating key by its hash, while its member is still one of the organisation's. */
export const memberKeyByHash = (db: DbOrTransaction, keyHash: string) =>
  db
    .selectFrom('floating_member_keys')
    .innerJoin('organisation_members', (join) =>
      join
        .onRef('organisation_members.organisation_id', '=', 'floating_member_keys.organisation_id')
        .onRef('organisation_members.user_id', '=', 'floating_member_keys.user_id'),
    )
    .select(['floating_member_keys.license_id', 'floating_member_keys.hardware_id'])
    .where('floating_member_keys.key_hash', '=', keyHash)
    .executeTakeFirst();
