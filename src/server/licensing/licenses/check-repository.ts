import SqliteDatabase from 'better-sqlite3';
import { sha256 } from '../../platform/crypto.js';
import type { RawConnection } from '../../platform/db/database.js';
import type { ActivationRow, LicenseRow } from '../../platform/db/tables.js';
import type { FloatingSeatsTable } from '../../platform/db/tables-floating.js';

/** This period's usage of one feature: `[feature_id, period_start, total, from_packs]`. */
export type UsageCell = [featureId: string, periodStart: string, total: number, fromPacks: number];

/** A credit pack of the license with units left: `[feature_id, units left, expires_at]`. */
export type PackCell = [featureId: string, left: number, expiresAt: string];

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
  | 'paused_until'
  | 'updated_at'
  | 'organisation_id'
  | 'trial_ends_at'
  | 'updates_until'
> {
  /** The name of the organisation whose license it is (null for a personal license). */
  organisation_name: string | null;
  activation: ActivationRow | null;
  /**
   * Read through a member's seat key: `activation` is the machine the key names, whatever hardware
   * id it is stored under (the check decides whether the caller is that machine).
   */
  seat_key: boolean;
  /**
   * Read through a member machine's floating key (an organisation's floating pool): the one
   * hardware id the key works with. The machine runs on the seat it holds, never on an activation.
   */
  floating_member_hardware_id?: string | undefined;
  /** With a member machine's floating key: the member, whom the answer names as the seat's holder. */
  floating_member_id?: string | undefined;
  usage: UsageCell[];
  /** Packs neither ended nor used up (expired ones too: the check drops them at its own time). */
  packs: PackCell[];
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
  /**
   * The license's machines whose apps sent fingerprint components: read only when a check's
   * components do not match the machine its hardware id names (a reinstall, or a clone).
   */
  machinesWithComponents(licenseId: string): Promise<ActivationRow[]>;
  /**
   * The floating seat the machine holds on the license at `now`, while the license's plan is
   * floating: read only when the machine has no activation of the license (a floating machine
   * runs on a seat, not an activation).
   */
  floatingSeat(licenseId: string, hardwareId: string, now: string): Promise<HeldFloatingSeat | undefined>;
  close(): void;
}

/** A floating seat a machine holds, as a license check answers it. */
export type HeldFloatingSeat = Pick<
  FloatingSeatsTable,
  'id' | 'hardware_id' | 'device_name' | 'holds_until' | 'borrowed_until'
>;

/**
 * SQLite's page cache (negative: KiB) for the check connection, so hot rows stay in memory. No
 * memory map: the pages it touched counted in the server's resident memory (the soak of 200 000
 * machines had up to 300 MiB of the file mapped besides the heap), where the page cache is bounded.
 */
const SQLITE_CACHE_KIB = 64 * 1024;

const LICENSE_COLUMNS = `l.id, l.license_key, l.plan_id, l.status, l.expires_at, l.revoked_reason,
  l.suspended_reason, l.paused_until, l.updated_at, l.organisation_id, l.trial_ends_at, l.updates_until,
  o.name AS organisation_name`;
const ACTIVATION_COLUMNS = `a.id AS a_id, a.hardware_id AS a_hardware_id, a.device_name AS a_device_name,
  a.platform AS a_platform, a.app_version AS a_app_version, a.activated_at AS a_activated_at,
  a.last_seen_at AS a_last_seen_at, a.deactivated_at AS a_deactivated_at,
  a.deactivated_reason AS a_deactivated_reason, a.activated_by AS a_activated_by, a.label AS a_label,
  a.components AS a_components`;

/**
 * The usage counters of both periods as one text, `feature period total from_packs` quadruples
 * joined by spaces: none of them can hold a space (a UUID, an ISO time, numbers), and building it
 * costs SQLite about half of what the JSON functions do. The license's open credit packs likewise,
 * `feature left expires_at` triples: units in packs are left once the allowance is used.
 */
const usageColumn = (concat: string, day: string, month: string) =>
  `(SELECT ${concat}(u.feature_id || ' ' || u.period_start || ' ' || u.total || ' ' || u.from_packs, ' ')
    FROM usage_counters u WHERE u.license_id = l.id AND u.period_start IN (${day}, ${month})) AS usage,
  (SELECT ${concat}(p.feature_id || ' ' || (p.units - p.used) || ' ' || p.expires_at, ' ')
    FROM usage_packs p WHERE p.license_id = l.id AND p.ended_at IS NULL AND p.used < p.units) AS packs`;

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
 * The same row through a member's seat key (see seat-keys.ts): its SHA-256 names one activation
 * and the license it is on; the check decides whether the caller is that machine (its hardware
 * id, or its components: a reinstalled machine keeps its key, a cloned one does not).
 */
const SQLITE_SEAT_CHECK = `SELECT ${LICENSE_COLUMNS}, ${ACTIVATION_COLUMNS}, ${usageColumn('group_concat', '@day', '@month')}
  FROM seat_keys k JOIN activations a ON a.id = k.activation_id
  JOIN licenses l ON l.id = a.license_id
  LEFT JOIN organisations o ON o.id = l.organisation_id
  WHERE k.key_hash = @key`;

const POSTGRES_SEAT_CHECK = `SELECT ${LICENSE_COLUMNS}, ${ACTIVATION_COLUMNS}, ${usageColumn('string_agg', '$2', '$3')}
  FROM seat_keys k JOIN activations a ON a.id = k.activation_id
  JOIN licenses l ON l.id = a.license_id
  LEFT JOIN organisations o ON o.id = l.organisation_id
  WHERE k.key_hash = $1`;

/**
 * The license through a member machine's floating key, while its member is still a member: no
 * activation (the machine runs on a floating seat), the key's hardware id beside it.
 */
const memberKeyCheck = (
  usage: string,
  key: string,
) => `SELECT ${LICENSE_COLUMNS}, ${ACTIVATION_COLUMNS}, ${usage},
  k.hardware_id AS k_hardware_id, k.user_id AS k_user_id
  FROM floating_member_keys k JOIN licenses l ON l.id = k.license_id
  LEFT JOIN organisations o ON o.id = l.organisation_id
  LEFT JOIN activations a ON 1 = 0
  WHERE k.key_hash = ${key} AND EXISTS (SELECT 1 FROM organisation_members m
    WHERE m.organisation_id = k.organisation_id AND m.user_id = k.user_id)`;
const SQLITE_MEMBER_KEY_CHECK = memberKeyCheck(usageColumn('group_concat', '@day', '@month'), '@key');
const POSTGRES_MEMBER_KEY_CHECK = memberKeyCheck(usageColumn('string_agg', '$2', '$3'), '$1');

const MACHINES_WITH_COMPONENTS = `SELECT * FROM activations WHERE license_id = @license AND components IS NOT NULL`;

/** A seat still held (its lease or borrow ahead) on a license whose plan is floating now. */
const HELD_FLOATING_SEAT = `SELECT s.id, s.hardware_id, s.device_name, s.holds_until, s.borrowed_until
  FROM floating_seats s JOIN licenses l ON l.id = s.license_id JOIN plans p ON p.id = l.plan_id
  WHERE s.license_id = @license AND s.hardware_id = @hardware AND s.holds_until > @now
    AND p.floating_seats IS NOT NULL`;

type JoinedRow = Omit<LicenseCheckRow, 'activation' | 'seat_key' | 'usage' | 'packs'> & {
  [K in keyof ActivationRow as `a_${K}`]: ActivationRow[K] | null;
} & { usage: string | null; packs: string | null; k_hardware_id?: string | null; k_user_id?: string | null };

function usageCells(text: string | null): UsageCell[] {
  if (!text) return [];
  const parts = text.split(' ');
  const cells: UsageCell[] = [];
  for (let index = 0; index + 3 < parts.length; index += 4)
    cells.push([
      parts[index] as string,
      parts[index + 1] as string,
      Number(parts[index + 2]),
      Number(parts[index + 3]),
    ]);
  return cells;
}

function packCells(text: string | null): PackCell[] {
  if (!text) return [];
  const parts = text.split(' ');
  const cells: PackCell[] = [];
  for (let index = 0; index + 2 < parts.length; index += 3)
    cells.push([parts[index] as string, Number(parts[index + 1]), parts[index + 2] as string]);
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
    paused_until: row.paused_until,
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
            components: row.a_components,
          },
    seat_key: seatKey !== undefined && !row.k_hardware_id,
    floating_member_hardware_id: row.k_hardware_id ?? undefined,
    floating_member_id: row.k_user_id ?? undefined,
    usage: usageCells(row.usage),
    packs: packCells(row.packs),
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
          values: [sha256(key), dayStart, monthStart],
        });
        const seatRow = seat.rows[0];
        if (seatRow) return toCheckRow(seatRow, key);
        const member = await raw.pool.query<JoinedRow>({
          name: 'license-member-key-check',
          text: POSTGRES_MEMBER_KEY_CHECK,
          values: [sha256(key), dayStart, monthStart],
        });
        const memberRow = member.rows[0];
        return memberRow ? toCheckRow(memberRow, key) : undefined;
      },
      async machinesWithComponents(licenseId) {
        const result = await raw.pool.query<ActivationRow>({
          name: 'license-check-machines',
          text: MACHINES_WITH_COMPONENTS.replace('@license', '$1'),
          values: [licenseId],
        });
        return result.rows;
      },
      async floatingSeat(licenseId, hardwareId, now) {
        const result = await raw.pool.query<HeldFloatingSeat>({
          name: 'license-check-floating-seat',
          text: HELD_FLOATING_SEAT.replace('@license', '$1').replace('@hardware', '$2').replace('@now', '$3'),
          values: [licenseId, hardwareId, now],
        });
        return result.rows[0];
      },
      close: () => undefined,
    };
  }
  const connection = new SqliteDatabase(raw.file, { readonly: true, fileMustExist: true });
  connection.pragma('busy_timeout = 5000');
  connection.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
  connection.pragma('mmap_size = 0');
  const statement = connection.prepare<
    { key: string; hardware: string; day: string; month: string },
    JoinedRow
  >(SQLITE_CHECK);
  const seatStatement = connection.prepare<{ key: string; day: string; month: string }, JoinedRow>(
    SQLITE_SEAT_CHECK,
  );
  const memberKeyStatement = connection.prepare<{ key: string; day: string; month: string }, JoinedRow>(
    SQLITE_MEMBER_KEY_CHECK,
  );
  const machinesStatement = connection.prepare<{ license: string }, ActivationRow>(MACHINES_WITH_COMPONENTS);
  const floatingSeatStatement = connection.prepare<
    { license: string; hardware: string; now: string },
    HeldFloatingSeat
  >(HELD_FLOATING_SEAT);
  return {
    read(key, hardwareId, dayStart, monthStart) {
      const params = { key, hardware: hardwareId, day: dayStart, month: monthStart };
      const row = statement.get(params);
      if (row) return Promise.resolve(toCheckRow(row));
      const hashed = { key: sha256(key), day: dayStart, month: monthStart };
      const seatRow = seatStatement.get(hashed) ?? memberKeyStatement.get(hashed);
      return Promise.resolve(seatRow ? toCheckRow(seatRow, key) : undefined);
    },
    machinesWithComponents(licenseId) {
      return Promise.resolve(machinesStatement.all({ license: licenseId }));
    },
    floatingSeat(licenseId, hardwareId, now) {
      return Promise.resolve(floatingSeatStatement.get({ license: licenseId, hardware: hardwareId, now }));
    },
    close: () => connection.close(),
  };
}
