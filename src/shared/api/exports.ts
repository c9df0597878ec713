import { z } from 'zod';
import { SECURITY_SEVERITIES, securityEventTypeFilterSchema, userIdSchema } from './admin.js';
import { dateRange, orderedRange, rangeProblem } from './paging.js';

/**
 * The audit exports: CSV for a spreadsheet, JSON Lines (one JSON object a line) for a log
 * pipeline. Both are streamed, so a year of events is written in constant memory.
 */
export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

const exportFields = {
  format: z
    .enum(EXPORT_FORMATS, 'format must be csv or jsonl')
    .default('csv')
    .describe('csv (a header line, then one row each) or jsonl (one JSON object a line)'),
  ...dateRange,
};

/** An organisation's exports: the format and the dates. */
export const exportQuerySchema = z.strictObject(exportFields).refine(orderedRange, rangeProblem);
export type ExportQuery = z.infer<typeof exportQuerySchema>;

/** The platform's security log, exported whole or filtered as its list is. */
export const securityEventExportQuerySchema = z
  .strictObject({
    ...exportFields,
    type: securityEventTypeFilterSchema.optional(),
    severity: z.enum(SECURITY_SEVERITIES).optional(),
    userId: userIdSchema.optional().describe('Events about this account or done by it'),
  })
  .refine(orderedRange, rangeProblem);
export type SecurityEventExportQuery = z.infer<typeof securityEventExportQuerySchema>;
