import { z } from 'zod';
import { readJsonFile, writeJsonFile } from './json-file.js';

/**
 * The last lease that verified under the pinned keys. Only the token: this file is the user's to
 * edit, so keys in it would vouch for nothing (files written by older versions also carry the
 * keys; they are dropped when read).
 */
const storedLeaseSchema = z.object({
  token: z.string().min(1),
});
export type StoredLease = z.infer<typeof storedLeaseSchema>;

/**
 * The machine trial's last lease, kept while no license key is stored, with the plan it tries
 * (what the app asks for again, and what signing in takes over). Trusted only when it verifies
 * under the pinned keys, like the license's lease.
 */
const storedMachineTrialSchema = z.object({
  token: z.string().min(1),
  plan_id: z.string().min(1),
});
export type StoredMachineTrial = z.infer<typeof storedMachineTrialSchema>;

const stateSchema = z.object({
  version: z.literal(1),
  /** The server the key and lease belong to: another server's lease means nothing here. */
  server_url: z.string(),
  license_key: z.string().nullable(),
  lease: storedLeaseSchema.nullable(),
  /** The machine trial started before any account (files written before machine trials have none). */
  machine_trial: storedMachineTrialSchema.nullable().default(null),
  /** The latest time (seconds) this machine's clock showed at a check; earlier means rolled back. */
  last_seen_seconds: z.number().int().nonnegative(),
});
export type LicenseState = z.infer<typeof stateSchema>;

export interface LicenseStateFile {
  read(): Promise<LicenseState>;
  /** Applies `change` to the current state and writes it; changes run one after another. */
  update(change: (state: LicenseState) => LicenseState): Promise<LicenseState>;
}

/**
 * The license key, the last lease and the clock high-water mark, in one JSON file under the app's
 * user data. A missing or damaged file, or one written for another server, reads as empty.
 */
export function createLicenseStateFile(path: string, serverUrl: string): LicenseStateFile {
  const empty = (): LicenseState => ({
    version: 1,
    server_url: serverUrl,
    license_key: null,
    lease: null,
    machine_trial: null,
    last_seen_seconds: 0,
  });
  const read = async (): Promise<LicenseState> => {
    const parsed = stateSchema.safeParse(await readJsonFile(path));
    return parsed.success && parsed.data.server_url === serverUrl ? parsed.data : empty();
  };
  let queue: Promise<unknown> = Promise.resolve();
  return {
    read,
    update(change) {
      const next = queue.then(async () => {
        const state = stateSchema.parse(change(await read()));
        await writeJsonFile(path, state);
        return state;
      });
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
