import { portalPaths } from '../../../../shared/routes';

/** The purchase screen's query parameters that open a checkout at once (see the payments feature). */
export const CHECKOUT_PARAMS = {
  /** The plan whose checkout opens. */
  plan: 'plan',
  /** The organisation a seat-based plan is bought for. */
  organisation: 'organisation',
} as const;

/**
 * The purchase screen opening a checkout: `plan`'s, and for a seat-based plan the organisation's
 * (with no plan, the one seat-based plan on sale): `/purchase?plan=…&organisation=…`.
 */
export function checkoutPath({
  planId,
  organisationId,
}: {
  planId?: string;
  organisationId?: string;
}): string {
  const query = new URLSearchParams();
  if (planId) query.set(CHECKOUT_PARAMS.plan, planId);
  if (organisationId) query.set(CHECKOUT_PARAMS.organisation, organisationId);
  const search = query.toString();
  return search ? `${portalPaths.purchase}?${search}` : portalPaths.purchase;
}
