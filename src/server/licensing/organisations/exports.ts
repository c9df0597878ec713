import type { Readable } from 'node:stream';
import type { ExportQuery } from '../../../shared/api/exports.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';
import { allRows, type ExportColumn, exportStream } from '../../platform/exports/stream-export.js';
import { exportSecurityEvents } from '../../platform/security-log/export.js';
import { assertManages, organisationAccess } from './access.js';
import { type SeatLedgerEntry, seatLedgerAfter } from './seat-ledger-repository.js';

const ledgerColumns: readonly ExportColumn<SeatLedgerEntry>[] = [
  { key: 'activated_at', value: (entry) => entry.activated_at },
  { key: 'deactivated_at', value: (entry) => entry.deactivated_at },
  { key: 'deactivated_reason', value: (entry) => entry.deactivated_reason },
  { key: 'user_id', value: (entry) => entry.user_id },
  { key: 'user_email', value: (entry) => entry.user_email },
  { key: 'device_name', value: (entry) => entry.device_name },
  { key: 'label', value: (entry) => entry.label },
  { key: 'platform', value: (entry) => entry.platform },
  { key: 'hardware_id', value: (entry) => entry.hardware_id },
  { key: 'last_seen_at', value: (entry) => entry.last_seen_at },
  { key: 'license_id', value: (entry) => entry.license_id },
  { key: 'activation_id', value: (entry) => entry.activation_id },
];

/**
 * An organisation's records for an audit, for its owner and admins: the seat ledger (who had which
 * machine on a seat, from when to when) and the organisation's security events, each streamed.
 * Access is decided before the first byte, so a refusal is a JSON error and never half a file.
 */
export function createOrganisationExportsService({ db }: { db: Db }) {
  return {
    async seatLedger(
      organisationId: string,
      caller: UserRow,
      { format, from, to }: ExportQuery,
    ): Promise<Readable> {
      assertManages(await organisationAccess(db, organisationId, caller));
      return exportStream(
        allRows<SeatLedgerEntry>((after, limit) =>
          seatLedgerAfter(db, organisationId, { from, to }, after, limit),
        ),
        format,
        ledgerColumns,
      );
    },

    async securityEvents(
      organisationId: string,
      caller: UserRow,
      { format, from, to }: ExportQuery,
    ): Promise<Readable> {
      assertManages(await organisationAccess(db, organisationId, caller));
      return exportSecurityEvents(db, { organisationId, from, to }, format);
    },
  };
}

export type OrganisationExportsService = ReturnType<typeof createOrganisationExportsService>;
