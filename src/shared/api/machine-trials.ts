import { z } from 'zod';
import { isoDateTimeSchema } from './common.js';
import { hardwareIdSchema, licenseTrialSchema, trialRefusalSchema } from './licenses.js';

/**
 * A machine trial: the desktop app tries a plan before any account exists, with its hardware id
 * and the app's public API key. `plan_id` (id or code) names a plan that offers a trial; without
 * it the server picks the lowest-priced plan on offer with one.
 */
export const startMachineTrialRequestSchema = z
  .strictObject({
    hardware_id: hardwareIdSchema,
    plan_id: z.string().trim().min(1, 'plan_id must not be empty').max(64).optional(),
  })
  .meta({ id: 'StartMachineTrialRequest' });
export type StartMachineTrialRequest = z.infer<typeof startMachineTrialRequestSchema>;

/** The machine's trial, running: the same one each time it is asked for (a reinstall included). */
export const machineTrialSchema = z
  .object({
    machine_trial_id: z.string(),
    plan: z.object({ id: z.string(), code: z.string(), name: z.string() }),
    started_at: isoDateTimeSchema,
    trial: licenseTrialSchema,
    lease: z
      .string()
      .describe(
        'Ed25519-signed compact JWS marked `machine_trial: true`, `sub` the machine trial id, `kfp` empty (no key); ' +
          'it never outlives the trial. Verify with GET /licensing/public-key',
      ),
    lease_expires_at: isoDateTimeSchema,
    message: z.string(),
  })
  .meta({ id: 'MachineTrial' });
export type MachineTrial = z.infer<typeof machineTrialSchema>;

/**
 * A refused machine trial: `machine_trial_used` once this machine's trial of the plan ended, or when
 * it had an account trial of it (`earlier_trial` says when it ran); `machine_trial_claimed` once an
 * account or a paid license took it over (signing in gets it back).
 */
export const machineTrialRefusalSchema = trialRefusalSchema;
