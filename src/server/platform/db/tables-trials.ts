import type { Selectable } from 'kysely';

/**
 * Where a trial was started: by a signed-in account; by a subscription's checkout with a card
 * (charged at the trial's end); or on a machine before any account existed (a machine trial the
 * account then claimed, running to the machine trial's end).
 */
export type TrialSource = 'account' | 'card' | 'machine';

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

/**
 * Every machine trial ever started (0031): a desktop app's trial of a plan before any account,
 * named by its hardware id alone, one per machine and plan, kept forever.
 */
export interface MachineTrialsTable {
  id: string;
  hardware_id: string;
  plan_id: string;
  started_at: string;
  /** When it ends, set by the server's clock when it starts. */
  ends_at: string;
  /**
   * The license that took it over: the account trial started from the machine (which then ends
   * when this trial does), or a paid license activated on the machine. Null while nobody has.
   */
  claimed_license_id: string | null;
  claimed_at: string | null;
}
export type MachineTrialRow = Selectable<MachineTrialsTable>;

export interface TrialTables {
  license_trials: LicenseTrialsTable;
  machine_trials: MachineTrialsTable;
}
