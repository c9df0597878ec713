/** What updates through electron-updater add to a release (migration 0020). */
export interface ReleaseUpdateColumns {
  channel: 'stable' | 'beta';
  /** Base64 SHA-512 of the file, as electron-builder writes it; null for releases older than updates. */
  sha512: string | null;
  /** Share of machines (0–100) offered the release, each decided by its own bucket. */
  rollout_percent: number;
  /** Set while the release is offered to no new machine. */
  paused_at: string | null;
  /** Set once the release is withdrawn: never offered again, machines on it go back. */
  yanked_at: string | null;
  release_notes: string;
  /** Update checks from machines running this release. */
  checks: number;
  /** Downloads of the file through the update feed. */
  downloads: number;
}

/** A machine that reported running a release, once per release. */
export interface ReleaseInstallsTable {
  release_id: string;
  activation_id: string;
  first_reported_at: string;
  last_reported_at: string;
}

export interface ReleaseTables {
  release_installs: ReleaseInstallsTable;
}
