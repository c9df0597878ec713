// Floating licences' seats and daily peaks (migration 0038), kept apart from tables.ts so their
// change stays in one place.

/** A seat a machine holds on a floating license: held while `holds_until` is ahead. */
export interface FloatingSeatsTable {
  id: string;
  license_id: string;
  hardware_id: string;
  device_name: string | null;
  checked_out_at: string;
  heartbeat_at: string;
  /** The last heartbeat plus the plan's lease, or the borrow's end while borrowed. */
  holds_until: string;
  /** While the seat is borrowed for offline use: when the borrow ends. */
  borrowed_until: string | null;
  /** The member whose machine took it through their own key (an organisation's pool); null otherwise. */
  held_by: string | null;
}

/** A member's key for one machine's floating seats of the organisation's license (migration 0050). */
export interface FloatingMemberKeysTable {
  /** SHA-256 of the key: the key itself is only ever in the answer that gave it. */
  key_hash: string;
  license_id: string;
  organisation_id: string;
  user_id: string;
  /** The one machine the key works with. */
  hardware_id: string;
  created_at: string;
}

/** The most seats a floating license had out at once on a UTC day (`YYYY-MM-DD`). */
export interface FloatingPeaksTable {
  license_id: string;
  day: string;
  peak: number;
}

export interface FloatingTables {
  floating_seats: FloatingSeatsTable;
  floating_peaks: FloatingPeaksTable;
  floating_member_keys: FloatingMemberKeysTable;
}
