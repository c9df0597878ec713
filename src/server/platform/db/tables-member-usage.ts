// The organisations' usage per member (migration 0036), kept apart from tables.ts so their change
// stays in one place.

/** The most a member may use of a metered feature per period, set by the organisation's owner or admins. */
export interface UsageMemberCapsTable {
  organisation_id: string;
  user_id: string;
  feature_id: string;
  cap: number;
  /** The account that set it (null once that account is gone). */
  set_by: string | null;
  updated_at: string;
}

/** A member's own running total of an organisation's license, per feature and period. */
export interface UsageMemberCountersTable {
  license_id: string;
  user_id: string;
  feature_id: string;
  period_start: string;
  total: number;
}

export interface MemberUsageTables {
  usage_member_caps: UsageMemberCapsTable;
  usage_member_counters: UsageMemberCountersTable;
}
