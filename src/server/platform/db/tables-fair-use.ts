// Fair use of a license's machines (migration 0039), kept apart from tables.ts so their change stays
// in one place: the deactivations that count against a plan's cap, and machines' component changes.

/** A machine deactivated by its customer, counted against the plan's cap for 30 days. */
export interface MachineDeactivationsTable {
  id: string;
  license_id: string;
  activation_id: string;
  hardware_id: string;
  deactivated_at: string;
  /** When an administrator reset the license's count: a forgiven deactivation no longer counts. */
  forgiven_at: string | null;
}

/** A machine recognised by enough of its fingerprint's components while others changed. */
export interface ActivationComponentChangesTable {
  id: string;
  activation_id: string;
  license_id: string;
  /** JSON array of the names of the components that changed. */
  changed: string;
  /** How many components matched. */
  matched: number;
  changed_at: string;
}

export interface FairUseTables {
  machine_deactivations: MachineDeactivationsTable;
  activation_component_changes: ActivationComponentChangesTable;
}
