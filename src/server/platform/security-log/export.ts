import type { Readable } from 'node:stream';
import type { SecurityEvent } from '../../../shared/api/admin.js';
import type { ExportFormat } from '../../../shared/api/exports.js';
import type { DbOrTransaction } from '../db/database.js';
import { allRows, type ExportColumn, exportStream } from '../exports/stream-export.js';
import { type SecurityEventExportFilters, securityEventsAfter } from './repository.js';

/** The columns of an exported security event. */
const columns: readonly ExportColumn<SecurityEvent>[] = [
  { key: 'created_at', value: (event) => event.created_at },
  { key: 'id', value: (event) => event.id },
  { key: 'type', value: (event) => event.type },
  { key: 'severity', value: (event) => event.severity },
  { key: 'user_id', value: (event) => event.user_id },
  { key: 'user_email', value: (event) => event.user_email },
  { key: 'actor_id', value: (event) => event.actor_id },
  { key: 'actor_email', value: (event) => event.actor_email },
  { key: 'ip', value: (event) => event.ip },
  { key: 'user_agent', value: (event) => event.user_agent },
  { key: 'details', value: (event) => event.details },
];

/** The security log's events that match, oldest first, streamed as CSV or JSON Lines. */
export function exportSecurityEvents(
  db: DbOrTransaction,
  filters: SecurityEventExportFilters,
  format: ExportFormat,
): Readable {
  return exportStream(
    allRows<SecurityEvent>((after, limit) => securityEventsAfter(db, filters, after, limit)),
    format,
    columns,
  );
}
