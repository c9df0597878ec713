import type { AssignableOrganisationRole } from '../../shared/api/organisations.js';
import type { Overage } from '../../shared/api/plans.js';
import type { ActivationRow, LicenseRow, UserRow } from '../platform/db/tables.js';
import type { EventPublisher } from '../platform/events.js';

/**
 * A license was issued, changed by an administrator, suspended, revoked or reached its expiry; or
 * its free trial started, is ending soon (three days before and on the last day), was bought or
 * ended unpaid.
 */
export interface LicenseEvent {
  type:
    | 'license.created'
    | 'license.updated'
    | 'license.suspended'
    | 'license.revoked'
    | 'license.expired'
    | 'license.trial_started'
    | 'license.trial_ending'
    | 'license.trial_converted'
    | 'license.trial_expired';
  license: LicenseRow;
  /** On `license.revoked`: an administrator revoked it, not a refund, so the owner is told why. */
  byAdministrator?: true;
}

/** A machine was activated on a license, or deactivated (the row as it is after). */
export interface ActivationEvent {
  type: 'activation.created' | 'activation.deleted';
  activation: ActivationRow;
  /** The license's owner. */
  userId: string | null;
}

/** Something happened to an organisation; `details` says who and what, where there is more to say. */
export interface OrganisationEvent {
  type:
    | 'organisation.created'
    | 'organisation.updated'
    | 'organisation.member_joined'
    | 'organisation.member_removed'
    | 'organisation.seats_changed';
  organisation: { id: string; name: string };
  details?: Record<string, unknown>;
  /** On `organisation.member_joined`: who joined, as what, of how many seats (the owner is told). */
  joined?: { member: UserRow; role: AssignableOrganisationRole; seats: number };
  /**
   * On `organisation.member_removed` by a manager, not a member leaving (the removed member is
   * told): who removed them, null for a platform administrator acting as the owner.
   */
  removal?: { memberId: string; by: UserRow | null; hadSeat: boolean; machinesEnded: number };
}

/**
 * A license's use of a metered feature this period reached 80 % of its allowance
 * (`usage.allowance_warning`) or all of it (`usage.allowance_reached`); each once per period.
 */
export interface AllowanceEvent {
  type: 'usage.allowance_warning' | 'usage.allowance_reached';
  license: LicenseRow;
  allowance: {
    featureId: string;
    featureKey: string;
    featureName: string;
    unit: string | null;
    period: 'day' | 'month';
    periodStart: string;
    periodEnd: string;
    used: number;
    limit: number;
    overage: Overage;
  };
}

/**
 * A license's use past a metered feature's allowance in a period that has ended was charged
 * (`usage.overage_charged`): billing announces it with the invoice it went on, once per charge,
 * feature and period.
 */
export interface OverageChargedEvent {
  type: 'usage.overage_charged';
  license: LicenseRow;
  overage: {
    featureId: string;
    featureKey: string;
    period: 'day' | 'month';
    periodStart: string;
    periodEnd: string;
    units: number;
    /** The invoice line's amount, in the plan's price terms (before tax where prices exclude it). */
    amountMinor: number;
    currency: string;
    invoice: { id: string; number: string };
    paymentId: string;
  };
}

/** A customer bought a credit pack of a metered feature (`usage.pack_bought`), settled once. */
export interface PackBoughtEvent {
  type: 'usage.pack_bought';
  license: LicenseRow;
  pack: {
    id: string;
    featureId: string;
    featureKey: string;
    units: number;
    expiresAt: string;
    paymentId: string;
  };
}

/**
 * A floating license's seats: the last one was taken (`floating.seats_exhausted`), a borrowed seat's
 * borrow ended without its return (`floating.borrow_overdue`), or a machine's heartbeats stopped for
 * longer than the lease (`floating.heartbeats_stopped`), its seat freed.
 */
export interface FloatingEvent {
  type: 'floating.seats_exhausted' | 'floating.borrow_overdue' | 'floating.heartbeats_stopped';
  license: LicenseRow;
  floating: Record<string, unknown>;
}

/**
 * Fair use of a license's machines: a machine took its last seat (`license.machine_limit_reached`),
 * or a customer's deactivation was refused because the plan's cap for 30 days is used
 * (`license.deactivation_limit_reached`).
 */
export interface MachineLimitEvent {
  type: 'license.machine_limit_reached' | 'license.deactivation_limit_reached';
  license: LicenseRow;
  machines: {
    hardware_id: string;
    limit: number;
    used: number;
    /** On a deactivation refused: when the next becomes possible (null when the plan allows none). */
    next_possible_at?: string | null;
  };
}

/** What the licensing context announces, each the webhook of the same name. */
export type LicensingEvent =
  | LicenseEvent
  | ActivationEvent
  | OrganisationEvent
  | AllowanceEvent
  | OverageChargedEvent
  | PackBoughtEvent
  | FloatingEvent
  | MachineLimitEvent;

/**
 * An organisation changed hands, from an owner to another member. Not a webhook
 * (`organisation.updated` tells integrators): billing hears it to hand the subscriptions the
 * previous owner held for the organisation to the new one, in the same transaction.
 */
export interface OwnershipTransferredEvent {
  type: 'organisation.ownership_transferred';
  organisationId: string;
  previousOwnerId: string;
  newOwnerId: string;
  /** When, as the transfer wrote it on the organisation's licenses. */
  at: string;
}

export type LicensingEvents = EventPublisher<LicensingEvent>;

/** Where licensing's organisations announce: their webhook events and an ownership transfer. */
export type OrganisationAnnouncements = EventPublisher<LicensingEvent | OwnershipTransferredEvent>;
