import SqliteDatabase from 'better-sqlite3';
import { sha256 } from '../../platform/crypto.js';
import type { RawConnection } from '../../platform/db/database.js';
import type { ActivationRow, LicenseRow } from '../../platform/db/tables.js';

/** This period's usage of one feature: `[feature_id, period_start, total]`. */
export type UsageCell = [featureId: string, periodStart: string, total: number];

/** What a license check reads: the license, this machine's activation (if any) and this period's usage. */
export interface LicenseCheckRow extends Pick<
  LicenseRow,
  | 'id'
  | 'license_key'
  | 'plan_id'
  | 'status'
  | 'expires_at'
  | 'revoked_reason'
  | 'suspended_reason'
  | 'updated_at'
  | 'organisation_id'
  | 'trial_ends_at'
  | 'updates_until'
> {
  /** The name of the organisation whose license it is (null for a personal license). */
  organisation_name: string | null;
  activation: ActivationRow | null;
  usage: UsageCell[];
}

export interface LicenseCheckReads {
  /**
   * The row of a normalized key (a license's, or a member machine's seat key) on one machine, with
   * the usage of the given day and month periods.
   */
  read(
    key: string,
    hardwareId: string,
    dayStart: string,
    monthStart: string,
  ): Promise<LicenseCheckRow | undefined>;
  close(): void;
}

/** SQLite's page cache (negative: KiB) and memory map for the check connection, so hot rows stay in memory. */
const SQLITE_CACHE_KIB = 64 * 1024;
const SQLITE_MMAP_BYTES = 256 * 1024 * 1024;

const LICENSE_COLUMNS = `l.id, l.license_key, l.plan_id, l.status, l.expires_at, l.revoked_reason,
  l.suspended_reason, l.updated_at, l.organisation_id, l.trial_ends_at, l.updates_until,
  o.name AS organisation_name`;
const ACTIVATION_COLUMNS = `a.id AS a_id, a.hardware_id AS a_hardware_id, a.device_name AS a_device_name,
  a.platform AS a_platform, a.app_version AS a_app_version, a.activated_at AS a_activated_at,
  a.last_seen_at AS a_last_seen_at, a.deactivated_at AS a_deactivated_at,
  a.deactivated_reason AS a_deactivated_reason, a.activated_by AS a_activated_by, a.label AS a_label`;

/**
 * The usage counters of both periods as one text, `feature period total` triples joined by
 * spaces: none of the three can hold a space (a UUID, an ISO time, a number), and building it costs
 * SQLite about half of what the JSON functions do.
 */
const usageColumn = (concat: string, day: string, month: string) =>
  `(SELECT ${concat}(u.feature_id || ' ' || u.period_start || ' ' || u.total, ' ') FROM usage_counters u
    WHERE u.license_id = l.id AND u.period_start IN (${day}, ${month})) AS usage`;

/**
 * One statement: the license by key, its organisation's name (a team member's answer names it),
 * the machine's activation and the usage counters of both periods.
 */
const SQLITE_CHECK = `SELECT ${LICENSE_COLUMNS}, ${ACTIVATION_COLUMNS}, ${usageColumn('group_concat', '@day', '@month')}
  FROM licenses l LEFT JOIN activations a ON a.license_id = l.id AND a.hardware_id = @hardware
  LEFT JOIN organisations o ON o.id = l.organisation_id
  WHERE l.license_key = @key`;

const POSTGRES_CHECK = `SELECT ${LICENSE_COLUMNS}, ${ACTIVATION_COLUMNS}, ${usageColumn('string_agg', '$3', '$4')}
  FROM licenses l LEFT JOIN activations a ON a.license_id = l.id AND a.hardware_id = $2
  LEFT JOIN organisations o ON o.id = l.organisation_id
  WHERE l.license_key = $1`;

/**
 * The same row through a member's seat key (see seat-keys.ts): its SHA-256 names one activation,
 * which must be this machine's, and the license it is on.
 */
const SQLITE_SEAT_CHECK = `SELECT ${LICENSE_COLUMNS}, ${ACTIVATION_COLUMNS}, ${usageColumn('group_concat', '@day', '@month')}
  FROM seat_keys k JOIN activations a ON a.id = k.activation_id AND a.hardware_id = @hardware
  JOIN licenses l ON l.id = a.license_id
  LEFT JOIN organisations o ON o.id = l.organisation_id
  WHERE k.key_hash = @key`;

const POSTGRES_SEAT_CHECK = `SELECT ${LICENSE_COLUMNS}, ${ACTIVATION_COLUMNS}, ${usageColumn('string_agg', '$3', '$4')}
  FROM seat_keys k JOIN activations a ON a.id = k.activation_id AND a.hardware_id = $2
  JOIN licenses l ON l.id = a.license_id
  LEFT JOIN organisations o ON o.id = l.organisation_id
  WHERE k.key_hash = $1`;

type JoinedRow = Omit<LicenseCheckRow, 'activation' | 'usage'> & {
  [K in keyof ActivationRow as `a_${K}`]: ActivationRow[K] | null;
} & { usage: string | null };

function usageCells(text: string | null): UsageCell[] {
  if (!text) return [];
  const parts = text.split(' ');
  const cells: UsageCell[] = [];
  for (let index = 0; index + 2 < parts.length; index += 3)
    cells.push([parts[index] as string, parts[index + 1] as string, Number(parts[index + 2])]);
  return cells;
}

/**
 * A read row as the check uses it. Read through a seat key, the key the machine presented stands
 * in for the organisation's: the lease binds to it (its fingerprint), and the answer never holds
 * the organisation's.
 */
function toCheckRow(row: JoinedRow, seatKey?: string): LicenseCheckRow {
  return {
    id: row.id,
    license_key: seatKey ?? row.license_key,
    plan_id: row.plan_id,
    status: row.status,
    expires_at: row.expires_at,
    revoked_reason: row.revoked_reason,
    suspended_reason: row.suspended_reason,
    updated_at: row.updated_at,
    organisation_id: row.organisation_id,
    trial_ends_at: row.trial_ends_at,
    updates_until: row.updates_until,
    organisation_name: row.organisation_name,
    activation:
      row.a_id === null
        ? null
        : {
            id: row.a_id,
            license_id: row.id,
            hardware_id: row.a_hardware_id as string,
            device_name: row.a_device_name,
            platform: row.a_platform,
            app_version: row.a_app_version,
            activated_at: row.a_activated_at as string,
            last_seen_at: row.a_last_seen_at as string,
            deactivated_at: row.a_deactivated_at,
            deactivated_reason: row.a_deactivated_reason,
            activated_by: row.a_activated_by,
            label: row.a_label,
          },
    usage: usageCells(row.usage),
  };
}

/**
 * The license check's read, one prepared statement outside the query builder. On SQLite it runs
 * on a read-only connection of its own, so it sees only committed rows even while the main
 * connection is inside a transaction; on PostgreSQL it is a named statement each pooled
 * connection prepares once.
 */
export function createLicenseCheckReads(raw: RawConnection): LicenseCheckReads {
  if (raw.dialect === 'postgres') {
    return {
      async read(key, hardwareId, dayStart, monthStart) {
        const result = await raw.pool.query<JoinedRow>({
          name: 'license-check',
          text: POSTGRES_CHECK,
          values: [key, hardwareId, dayStart, monthStart],
        });
        const row = result.rows[0];
        if (row) return toCheckRow(row);
        const seat = await raw.pool.query<JoinedRow>({
          name: 'license-seat-check',
          text: POSTGRES_SEAT_CHECK,
          values: [sha256(key), hardwareId, dayStart, monthStart],
        });
        const seatRow = seat.rows[0];
        return seatRow ? toCheckRow(seatRow, key) : undefined;
      },
      close: () => undefined,
    };
  }
  const connection = new SqliteDatabase(raw.file, { readonly: true, fileMustExist: true });
  connection.pragma('busy_timeout = 5000');
  connection.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
  connection.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
  const statement = connection.prepare<
    { key: string; hardware: string; day: string; month: string },
    JoinedRow
  >(SQLITE_CHECK);
  const seatStatement = connection.prepare<
    { key: string; hardware: string; day: string; month: string },
    JoinedRow
  >(SQLITE_SEAT_CHECK);
  return {
    read(key, hardwareId, dayStart, monthStart) {
      const params = { key, hardware: hardwareId, day: dayStart, month: monthStart };
      const row = statement.get(params);
      if (row) return Promise.resolve(toCheckRow(row));
      const seatRow = seatStatement.get({ ...params, key: sha256(key) });
      return Promise.resolve(seatRow ? toCheckRow(seatRow, key) : undefined);
    },
    close: () => connection.close(),
  };
}
