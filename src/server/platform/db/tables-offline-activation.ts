import type { Selectable } from 'kysely';

/** One activation request file taken by the portal, kept by its nonce. */
export interface OfflineActivationsTable {
  id: string;
  /** The request's nonce: the same file uploaded again finds this row. */
  nonce: string;
  license_id: string;
  activation_id: string;
  hardware_id: string;
  /** The installation's Ed25519 public key (JSON JWK) that signs its signed-out proof. */
  installation_key: string;
  /** The license file's lease, answered again as is when the same request comes back. */
  lease: string;
  lease_id: string;
  lease_expires_at: string;
  /** The account that uploaded the request (an administrator's, when one did). */
  uploaded_by: string;
  created_at: string;
  /** When a signed-out proof freed the seat: the request and the proof are spent from then on. */
  deactivated_at: string | null;
  deactivated_by: string | null;
}
export type OfflineActivationRow = Selectable<OfflineActivationsTable>;

/** A plan's own lifetime for offline licenses; plans without a row use the default. */
export interface PlanOfflineLeasesTable {
  plan_id: string;
  lease_days: number;
}

// Activation by file's tables, kept apart from tables.ts so their change stays in one place.
export interface OfflineActivationTables {
  offline_activations: OfflineActivationsTable;
  plan_offline_leases: PlanOfflineLeasesTable;
}
