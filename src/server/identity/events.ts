/**
 * An account is being erased (its deletion's grace period is over, or an administrator erased
 * it): the contexts above identity end what the account held, in the erasure's transaction (billing
 * its subscriptions, licensing its licenses and memberships). No webhook: the payments, licenses
 * and subscriptions it changes say so in their own terms where they announce anything.
 */
export interface AccountErasingEvent {
  type: 'account.erasing';
  userId: string;
  /** The erasure's time, which the rows it ends carry. */
  at: string;
}

export type IdentityEvent = AccountErasingEvent;
