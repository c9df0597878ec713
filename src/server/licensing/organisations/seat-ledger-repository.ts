import type { DbOrTransaction } from '../../platform/db/database.js';

/** One machine on a seat of the organisation's license, from its activation to its end (or now). */
export interface SeatLedgerEntry {
  activation_id: string;
  license_id: string;
  user_id: string | null;
  user_email: string | null;
  device_name: string | null;
  label: string | null;
  platform: string | null;
  hardware_id: string;
  activated_at: string;
  last_seen_at: string;
  deactivated_at: string | null;
  deactivated_reason: string | null;
}

/**
 * The page of the organisation's seat ledger after `after`, in the order the machines were
 * activated: those on a seat at any moment between `from` and `to`, keyed on the activation's time
 * and id so each page is one range.
 */
export async function seatLedgerAfter(
  db: DbOrTransaction,
  organisationId: string,
  range: { from?: string | undefined; to?: string | undefined },
  after: SeatLedgerEntry | undefined,
  limit: number,
): Promise<SeatLedgerEntry[]> {
  let select = db
    .selectFrom('activations')
    .innerJoin('licenses', 'licenses.id', 'activations.license_id')
    .leftJoin('users', 'users.id', 'activations.activated_by')
    .select([
      'activations.id as activation_id',
      'activations.license_id',
      'activations.activated_by as user_id',
      'users.email as user_email',
      'activations.device_name',
      'activations.label',
      'activations.platform',
      'activations.hardware_id',
      'activations.activated_at',
      'activations.last_seen_at',
      'activations.deactivated_at',
      'activations.deactivated_reason',
    ])
    .where('licenses.organisation_id', '=', organisationId);
  const { from, to } = range;
  if (to) select = select.where('activations.activated_at', '<=', to);
  if (from)
    select = select.where((eb) =>
      eb.or([eb('activations.deactivated_at', 'is', null), eb('activations.deactivated_at', '>=', from)]),
    );
  // A row-value comparison: answered from the index in order (the OR form sorts the rest each page).
  if (after)
    select = select.where((eb) =>
      eb(
        eb.refTuple('activations.activated_at', 'activations.id'),
        '>',
        eb.tuple(after.activated_at, after.activation_id),
      ),
    );
  return select
    .orderBy('activations.activated_at', 'asc')
    .orderBy('activations.id', 'asc')
    .limit(limit)
    .execute();
}
