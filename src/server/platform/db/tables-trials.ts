import type { Selectable } from 'kysely';

/**
 * Where a trial was started: by a signed-in account, or by a subscription's checkout with a card
 * (charged at the trial's end).
 */
export type TrialSource = 'account' | 'card';

/**
 * Every free trial ever started (0029), kept when its license or account is gone, so a person or
 * machine that had one does not get another.
 */
export interface LicenseTrialsTable {
  id: string;
  license_id: string;
  user_id: string;
  plan_id: string;
  /** SHA-256 of the normalised e-mail address: one trial per person and plan, whatever the account. */
  person_hash: string;
  /** The machine the trial was started on and activated, if one was given. */
  hardware_id: string | null;
  source: TrialSource;
  started_at: string;
  /** When it ends, as extended or ended by an administrator. */
  ends_at: string;
  /** When the plan was bought while on trial. */
  converted_at: string | null;
}
export type LicenseTrialRow = Selectable<LicenseTrialsTable>;

export interface TrialTables {
  license_trials: LicenseTrialsTable;
}
