import type { Clock } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow } from '../../platform/db/tables.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import type { LicensingEvents } from '../events.js';
import { findLicenseById, lockLicense } from '../licenses/repository.js';
import { deleteSeatRows, findLapsedSeat, type FloatingSeatRow, lapsedSeatRows } from './repository.js';

export interface LapsedSeat {
  row: FloatingSeatRow;
  license: LicenseRow;
}

/**
 * Tells integrators and administrators of seats that came back on their own: a borrow that ended
 * unreturned, or a machine that stopped sending heartbeats. Run in the transaction that deletes them,
 * so each is announced once.
 */
export async function announceLapsed(
  trx: DbOrTransaction,
  clock: Clock,
  events: LicensingEvents,
  lapsed: LapsedSeat[],
): Promise<void> {
  for (const { row, license } of lapsed) {
    const borrowed = row.borrowed_until !== null && row.borrowed_until >= row.heartbeat_at;
    const floating = {
      license_id: row.license_id,
      seat_id: row.id,
      device_name: row.device_name,
      checked_out_at: row.checked_out_at,
      last_heartbeat_at: row.heartbeat_at,
      borrowed_until: row.borrowed_until,
      held_until: row.holds_until,
    };
    await events.publish(trx, {
      type: borrowed ? 'floating.borrow_overdue' : 'floating.heartbeats_stopped',
      license,
      floating,
    });
    await recordSecurityEvent(trx, clock, {
      type: borrowed
        ? securityEventTypes.floatingBorrowOverdue
        : securityEventTypes.floatingHeartbeatsStopped,
      severity: 'info',
      userId: license.user_id,
      details: floating,
    });
  }
}

/** Maintenance: frees (and announces) seats of any license that lapsed with nobody asking since. */
export async function pruneLapsedSeats(
  db: Db,
  clock: Clock,
  events: LicensingEvents,
  batch = 500,
): Promise<number> {
  const rows = await lapsedSeatRows(db, clock.now().toISOString(), batch);
  let freed = 0;
  for (const row of rows) {
    freed += await db.transaction().execute(async (trx) => {
      // Under the license's lock, as a checkout drops lapsed seats: each is announced once.
      await lockLicense(trx, row.license_id);
      const license = await findLicenseById(trx, row.license_id);
      // Deleted only if still lapsed and still there: a checkout under the lock may have dropped it.
      const current = await findLapsedSeat(trx, row.id, clock.now().toISOString());
      if (!license || !current) return 0;
      const deleted = await deleteSeatRows(trx, [current.id]);
      if (deleted === 1) await announceLapsed(trx, clock, events, [{ row: current, license }]);
      return deleted;
    });
  }
  return freed;
}
