import { z } from 'zod';
import { displayText, isoDateTimeSchema, opaqueTokenSchema } from './common.js';

/** One archive of an account's data, as its owner (or an administrator) sees it being made. */
export const dataExportSchema = z
  .object({
    id: z.string(),
    status: z.enum(['queued', 'building', 'ready', 'failed', 'expired']),
    /** 0–100 while it is made; 100 once ready. */
    progress: z.number().int().min(0).max(100),
    requested_at: isoDateTimeSchema,
    ready_at: isoDateTimeSchema.nullable(),
    /** When the download link stops working (24 hours after it is ready). */
    expires_at: isoDateTimeSchema.nullable(),
    size_bytes: z.number().int().nullable(),
  })
  .meta({ id: 'DataExport' });
export type DataExport = z.infer<typeof dataExportSchema>;

export const dataExportAnswerSchema = z
  .object({ export: dataExportSchema.nullable() })
  .meta({ id: 'DataExportAnswer' });
export type DataExportAnswer = z.infer<typeof dataExportAnswerSchema>;

export const dataExportDownloadParamsSchema = z.object({ token: opaqueTokenSchema });

/** Asking for the account's deletion: the customer confirms having read what it does. */
export const accountDeletionRequestSchema = z
  .strictObject({
    confirm: z.literal(true, 'Confirm that you understand what deleting the account does'),
  })
  .meta({ id: 'AccountDeletionRequest' });
export type AccountDeletionRequest = z.infer<typeof accountDeletionRequestSchema>;

export const accountDeletionSchema = z
  .object({
    /** When the account is erased unless the deletion is cancelled first; null when none is asked. */
    deletion_due_at: isoDateTimeSchema.nullable(),
    grace_days: z.number().int(),
  })
  .meta({ id: 'AccountDeletion' });
export type AccountDeletion = z.infer<typeof accountDeletionSchema>;

/** An administrator's erasure of an account, now, with the reason the log keeps. */
export const eraseUserRequestSchema = z
  .strictObject({
    reason: displayText(500).min(3, 'Give the reason for erasing the account (at least 3 characters)'),
  })
  .meta({ id: 'EraseUserRequest' });
export type EraseUserRequest = z.infer<typeof eraseUserRequestSchema>;
