import { z } from 'zod';
import { offlineLicenseFileSchema } from '../offline-files.js';
import { isoDateTimeSchema } from './common.js';

/** The portal's answer to an activation request file: the license file to carry back to the machine. */
export const offlineActivationResultSchema = z
  .object({
    license_file: offlineLicenseFileSchema,
    file_name: z.string().describe('What to save the license file as'),
    /** False when the same request was uploaded before: the same seat and the same file. */
    created: z.boolean(),
    device_name: z.string().nullable(),
    message: z.string(),
  })
  .meta({ id: 'OfflineActivationResult' });
export type OfflineActivationResult = z.infer<typeof offlineActivationResultSchema>;

/** The portal's answer to a signed-out proof: the machine's seat is free. */
export const offlineDeactivationResultSchema = z
  .object({
    license_id: z.string(),
    hardware_id: z.string(),
    device_name: z.string().nullable(),
    deactivated_at: isoDateTimeSchema,
    message: z.string(),
  })
  .meta({ id: 'OfflineDeactivationResult' });
export type OfflineDeactivationResult = z.infer<typeof offlineDeactivationResultSchema>;
