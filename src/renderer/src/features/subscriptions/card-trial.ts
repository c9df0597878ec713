import type { Subscription } from '../../../../shared/api/subscriptions';

/**
 * A subscription on its card trial: authorized, its first charge (at `trial_ends_at`) not made
 * yet, so it has no paid license. Canceling it charges nothing; the trial runs to its end.
 */
export const onCardTrial = (subscription: Subscription): boolean =>
  subscription.status === 'active' && subscription.trial_ends_at !== null && subscription.license_id === null;
