import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { ApiTokenTables } from './tables-api-tokens.js';
import type { OfflineActivationTables } from './tables-offline-activation.js';
import type { OrganisationTables } from './tables-organisations.js';
import type { PlanChangeQuoteTables } from './tables-plan-change-quotes.js';
import type { ReleaseTables, ReleaseUpdateColumns } from './tables-releases.js';
import type { WebhookTables } from './tables-webhooks.js';
import type { TrialTables } from './tables-trials.js';
import type { UsageOverageTables } from './tables-usage-overage.js';
import type { FairUseTables } from './tables-fair-use.js';
import type { MemberUsageTables } from './tables-member-usage.js';
import type { FloatingTables } from './tables-floating.js';
import type { ScimTables } from './tables-scim.js';

// Timestamps are ISO-8601 UTC strings and flags are nullable timestamps, so the same rows and
// comparisons work on SQLite and PostgreSQL alike.

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  role: 'user' | 'admin';
  status: 'active' | 'disabled';
  full_name: string | null;
  company: string | null;
  /** JSON text of the user's preferences. */
  preferences: string;
  email_verified_at: string | null;
  password_changed_at: string | null;
  /** Carried by access tokens as `sv`; raising it ends every token issued before. */
  session_version: Generated<number>;
  created_at: string;
  updated_at: string;
  /** When the account is to be erased, as its owner asked (0040); null when not asked. */
  deletion_due_at: Generated<string | null>;
  /** When its personal data was erased: the row stays, pseudonymous, for invoices and the log. */
  erased_at: Generated<string | null>;
}
export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

/** One sign-in: every rotated refresh token of it belongs to the family; revoking it ends the session. */
export interface RefreshTokenFamiliesTable {
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  revoked_reason: string | null;
  user_agent: string | null;
  ip: string | null;
  /** When the sign-in that started the session happened (null for sessions from before 0016). */
  authenticated_at: string | null;
  /** When the session last proved itself again with a password, code or passkey. */
  stepped_up_at: string | null;
  /** JSON array of the sign-in's methods ("pwd", "otp", "webauthn"). */
  methods: string | null;
  /** SHA-256 of the web session's binding cookie; null for other clients' sessions (0022). */
  binding_hash: string | null;
}

export interface RefreshTokensTable {
  id: string;
  family_id: string;
  /** SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  created_at: string;
  used_at: string | null;
}

export type EmailTokenPurpose = 'verify_email' | 'reset_password';

export interface EmailTokensTable {
  id: string;
  user_id: string;
  purpose: EmailTokenPurpose;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export type DataExportStatus = 'queued' | 'building' | 'ready' | 'failed';

/** An archive of an account's data, built by the scheduler and downloaded with a token (0040). */
export interface DataExportsTable {
  id: string;
  user_id: string;
  requested_by: string | null;
  status: DataExportStatus;
  progress: Generated<number>;
  /** While a server builds it; a build left by a stopped server is taken up again after. */
  claimed_until: string | null;
  attempts: Generated<number>;
  /** SHA-256 of the download link's token. */
  token_hash: string | null;
  /** Base64 of the tar.gz. */
  archive: string | null;
  archive_bytes: number | null;
  expires_at: string | null;
  created_at: string;
  completed_at: string | null;
}
export type DataExportRow = Selectable<DataExportsTable>;

export type SecuritySeverity = 'info' | 'warning' | 'critical';

export interface SecurityEventsTable {
  id: string;
  type: string;
  severity: SecuritySeverity;
  /** The account concerned; kept as plain text so events outlive deleted users. */
  user_id: string | null;
  actor_id: string | null;
  ip: string | null;
  user_agent: string | null;
  /** JSON text with event-specific details. */
  details: string | null;
  created_at: string;
}
export type SecurityEventRow = Selectable<SecurityEventsTable>;

/** Failed sign-ins counted per (account, client address) pair. */
export interface LoginThrottlesTable {
  key: string;
  failures: number;
  first_failure_at: string;
  locked_until: string | null;
}

export interface FeaturesTable {
  id: string;
  key: string;
  name: string;
  description: string;
  kind: 'boolean' | 'metered';
  period: 'day' | 'month' | null;
  unit: string | null;
  created_at: string;
  updated_at: string;
}
export type FeatureRow = Selectable<FeaturesTable>;

/** A plan's price in a currency other than its own (0054); the plan's own price stays on the plan. */
export interface PlanPricesTable {
  plan_id: string;
  currency: string;
  price_minor: number;
  created_at: string;
  updated_at: string;
}
export type PlanPriceRow = Selectable<PlanPricesTable>;

export interface PlansTable {
  id: string;
  code: string;
  name: string;
  description: string;
  price_minor: number;
  currency: string;
  billing_interval: 'month' | 'year' | 'lifetime' | 'free';
  max_activations: number;
  /** 0 or 1: SQLite has no boolean type. */
  is_public: number;
  is_active: number;
  sort_order: number;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
  /** 0 or 1: priced per seat and sold to organisations; `max_activations` is then machines per seat. */
  seat_based: Generated<number>;
  /** 0 or 1: a plan created by an administrator is a draft, neither listed nor sold, until published (0027). */
  draft: Generated<number>;
  /** Days of the free trial a signed-in customer may start without a card; 0 offers none (0029). */
  trial_days: Generated<number>;
  /** Months of updates a perpetual plan's license gets, or a renewal adds; null otherwise (0028). */
  update_months: Generated<number | null>;
  /** On an update renewal plan: the perpetual plan whose licenses' update window it extends (0028). */
  renews_updates_of: Generated<string | null>;
  /** On a floating plan: how many machines may hold a seat at once; null on a node-locked plan (0038). */
  floating_seats: Generated<number | null>;
  /** On a floating plan: how long a seat stays held after its machine's last heartbeat, in minutes. */
  floating_lease_minutes: Generated<number | null>;
  /** On a floating plan: the most days a machine may borrow a seat for offline use (0: none). */
  floating_borrow_days: Generated<number | null>;
  /** How many machines a license may deactivate in a rolling 30 days (0039). */
  deactivations_per_30_days: Generated<number>;
  /** How many of a machine's fingerprint components must match for it to be known again (0039). */
  fingerprint_threshold: Generated<number>;
}
export type PlanRow = Selectable<PlansTable>;

export interface PlanFeaturesTable {
  plan_id: string;
  feature_id: string;
  /** Units per period for metered features; null is unlimited. */
  limit_value: number | null;
  /** What happens past the allowance (0032): stop there, bill each unit, or bill up to a cap. */
  overage_policy: Generated<'stop' | 'bill' | 'cap'>;
  /** The price of `overage_per_units` units over the allowance, in the plan's minor unit. */
  overage_price_minor: number | null;
  overage_per_units: Generated<number>;
  /** Under 'cap': how many units over the allowance may be used (and billed). */
  overage_cap: number | null;
  /** The credit pack sold for the feature (0033): its units and price in the plan's minor unit. */
  pack_units: number | null;
  pack_price_minor: number | null;
}

export interface LicensesTable {
  id: string;
  license_key: string;
  user_id: string;
  plan_id: string;
  subscription_id: string | null;
  status: 'active' | 'suspended' | 'revoked' | 'expired' | 'paused';
  expires_at: string | null;
  max_activations: number;
  /** The owner's id on their one free Base license, null otherwise: a unique column enforces "one each". */
  base_owner_id: string | null;
  /** JSON text given at plan activation (`userInfo`). */
  metadata: string | null;
  revoked_reason: string | null;
  revoked_at: string | null;
  /** Why the license is suspended (an unpaid subscription, say); told to its app and its owner. */
  suspended_reason: string | null;
  /** The organisation whose members share the license's named seats; null for a personal license. */
  organisation_id: Generated<string | null>;
  /** Named seats bought, on an organisation's license; null otherwise. */
  seats: Generated<number | null>;
  /**
   * While the license is a free trial: when it ends (its expiry is the same moment); cleared when
   * the plan is bought. A trial past it reads as `trial_expired` (0029).
   */
  trial_ends_at: Generated<string | null>;
  /** On a perpetual plan's license: releases published before this moment are covered (0028). */
  updates_until: Generated<string | null>;
  /** While `paused` (its subscription is paused, 0046): when it resumes. */
  paused_until: Generated<string | null>;
  created_at: string;
  updated_at: string;
}
export type LicenseRow = Selectable<LicensesTable>;
export type LicenseUpdate = Updateable<LicensesTable>;

/** Who freed a machine's seat: its user, an administrator, another machine reclaiming it, or its organisation taking back the member's seat. */
export type DeactivationReason = 'user' | 'admin' | 'reclaimed' | 'seat_removed';

/** One machine on one license; a seat is taken while `deactivated_at` is null. */
export interface ActivationsTable {
  id: string;
  license_id: string;
  hardware_id: string;
  device_name: string | null;
  platform: string | null;
  app_version: string | null;
  activated_at: string;
  last_seen_at: string;
  deactivated_at: string | null;
  deactivated_reason: DeactivationReason | null;
  /** The account that last activated the machine and holds its seat; null once that account is gone. */
  activated_by: string | null;
  /** The name the license's owner gave the machine; activating it again keeps it. */
  label: string | null;
  /** JSON of the machine's hashed fingerprint components, when its app sends them (0039). */
  components: Generated<string | null>;
}
export type ActivationRow = Selectable<ActivationsTable>;
export type ActivationInsert = Insertable<ActivationsTable>;
export type ActivationUpdate = Updateable<ActivationsTable>;

export interface UsageEventsTable {
  id: string;
  license_id: string;
  feature_id: string;
  amount: number;
  /** JSON text of `usageData`. */
  data: string;
  /** When the server received it. */
  created_at: string;
  /** The reporter's id for the event (0032), unique per license: a retried batch counts once. */
  event_id: string | null;
  /** When it happened: the period it counts in. */
  occurred_at: string | null;
  /** Who reported it: the license holder or an organisation's member. */
  user_id: string | null;
}

/** Use per license, feature and UTC day (`YYYY-MM-DD`), rolled up as events are counted. */
export interface UsageDailyTable {
  license_id: string;
  feature_id: string;
  day: string;
  total: number;
}

/**
 * Units of a feature a machine holds for use offline (0034), from its period's allowance: other
 * reporters cannot count them until `expires_at` or the machine's next lease replaces the row.
 */
export interface UsageReservationsTable {
  license_id: string;
  activation_id: string;
  feature_id: string;
  period_start: string;
  units: number;
  /** What the machine reported of use made since `taken_at`, up to `units`: those are counted. */
  used: number;
  taken_at: string;
  expires_at: string;
}

/** Running total per license, feature and period: the row the limit is checked against atomically. */
export interface UsageCountersTable {
  license_id: string;
  feature_id: string;
  period_start: string;
  total: number;
  /** What this period's use drew from credit packs (0033), past the allowance and not billed. */
  from_packs: Generated<number>;
}

/**
 * A credit pack of a license's metered feature (0033): bought (`payment_id`) or granted by an
 * administrator (`granted_by`, `reason`). Its units are drawn once the period's allowance is used,
 * until it expires; a refund ends what is left of it (`ended_at`).
 */
export interface UsagePacksTable {
  id: string;
  license_id: string;
  feature_id: string;
  units: number;
  used: Generated<number>;
  source: 'purchase' | 'grant';
  payment_id: string | null;
  granted_by: string | null;
  reason: string | null;
  created_at: string;
  expires_at: string;
  ended_at: string | null;
}
export type UsagePackRow = Selectable<UsagePacksTable>;

/** What an order for credit packs buys (0033), written with the order, read when it is settled. */
export interface UsagePackOrdersTable {
  payment_id: string;
  license_id: string;
  feature_id: string;
  /** How many packs. */
  quantity: number;
  /** Units in each pack. */
  units: number;
  /** The price of each pack, in the plan's minor unit. */
  price_minor: number;
  /** What the invoice calls each pack, e.g. "500 AI requests credit pack". */
  description: string;
}

export interface ReleasesTable extends ReleaseUpdateColumns {
  id: string;
  platform: 'windows' | 'macos' | 'linux';
  version: string;
  file_name: string;
  size_bytes: number;
  sha256: string;
  published_at: string;
}
export type ReleaseRow = Selectable<ReleasesTable>;

/** Settings an administrator changes at run time (JSON text values). */
export interface SettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export type PaymentProviderName = 'razorpay' | 'sandbox';
export type PaymentStatus = 'created' | 'paid' | 'failed';

/** One order with a payment provider; amounts in the currency's minor unit (paise, cents). */
export interface PaymentsTable {
  id: string;
  /** Null once the account is deleted: the payment record outlives it. */
  user_id: string | null;
  plan_id: string;
  provider: PaymentProviderName;
  provider_order_id: string;
  /** The provider's payment (attempt) id, known once the buyer has paid or been declined. */
  provider_payment_id: string | null;
  amount_minor: number;
  currency: string;
  status: PaymentStatus;
  /** The license the payment granted or extended. */
  license_id: string | null;
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
  paid_at: string | null;
  /** The subscription this payment is a charge of; null for a one-off purchase. */
  subscription_id: string | null;
  kind: Generated<PaymentKind>;
  /** The period a subscription charge pays for. */
  period_start: string | null;
  period_end: string | null;
}
export type PaymentRow = Selectable<PaymentsTable>;

/**
 * The buyer's side of an order, kept apart from {@link PaymentsTable} so a charge built in code
 * need not name it: when the customer hid this expired or failed order from their history
 * (cleared if it is paid late).
 */
export interface PaymentDismissalColumns {
  dismissed_at: Generated<string | null>;
}

/** A one-off purchase (one period, or a lifetime), or one charge of a subscription. */
export type PaymentKind = 'purchase' | 'subscription';

/**
 * pending until its first charge; active while paid up; past_due after a failed charge (the license
 * stays valid through the grace period); suspended once the grace period has ended unpaid (a later
 * payment restores it); cancelled once it has ended.
 */
export type SubscriptionStatus = 'pending' | 'active' | 'past_due' | 'suspended' | 'paused' | 'cancelled';

/** The sandbox's stand-in for the customer's card. */
export type SandboxCard = 'succeeds' | 'declines';

export interface SubscriptionsTable {
  id: string;
  user_id: string | null;
  plan_id: string;
  /** The license the subscription keeps alive, issued by its first charge. */
  license_id: string | null;
  provider: PaymentProviderName;
  provider_subscription_id: string;
  status: SubscriptionStatus;
  /** Cycle anchor_cycle + n ends at anchor + n billing intervals; null until the first charge. */
  anchor_at: string | null;
  /** Cycles paid before the anchor. */
  anchor_cycle: number;
  /** Periods paid in all, each a cycle numbered from 1. */
  cycles: number;
  current_period_start: string | null;
  current_period_end: string | null;
  /** 0 or 1: ends when the paid period does, with no further charge. */
  cancel_at_period_end: number;
  cancel_requested_at: string | null;
  ended_at: string | null;
  grace_ends_at: string | null;
  next_retry_at: string | null;
  failed_attempts: number;
  /** How the customer pays, as shown to them (a card's brand and last digits). */
  payment_method: string | null;
  sandbox_card: SandboxCard | null;
  /** Left over from a move to a cheaper plan; taken off the next charges. */
  credit_minor: number;
  version: number;
  /** The coupon it was opened with (its duration says whether renewals are discounted too). */
  coupon_id: string | null;
  /** A Razorpay plan change: the subscription whose license this one takes over on its first charge. */
  replaces_subscription_id: string | null;
  /** The credit quoted for the replaced subscription's unused period, refunded when it is closed. */
  replacement_credit_minor: number;
  /** On a replaced subscription: the refund still owed, until the provider's side is closed. */
  closeout_refund_minor: number | null;
  /** When the provider was told to charge it no more (and a replaced one's credit was refunded). */
  provider_closed_at: string | null;
  /** The organisation it was bought for (a seat-based plan); null for a customer's own. */
  organisation_id: Generated<string | null>;
  /** Seats paid for each cycle: 1 unless the plan is seat-based. */
  seats: Generated<number>;
  /** Periods paid before the provider's own charges start (1 when the first was an upfront amount). */
  provider_cycle_offset: number;
  /**
   * A card trial (0030): the first charge is due then, and until it is paid the subscription is
   * active with no paid cycle. Null for a subscription without a trial.
   */
  trial_ends_at: string | null;
  /** A card trial's machine, when the checkout was opened in the desktop app (one trial per machine). */
  trial_hardware_id: string | null;
  /** A pause asked for (0046): how many periods; null without one. */
  pause_periods: Generated<number | null>;
  pause_requested_at: Generated<string | null>;
  /**
   * The currency it was bought in, and every charge of it is in (0054): the plan's own or one of
   * its other prices. Null only on a row written before, whose plan's currency it then is.
   */
  currency: Generated<string | null>;
  /**
   * When the pause ends and the next period is billed. Set while `active`, the pause starts when
   * the paid period ends; while `paused`, the subscription resumes then. Null without a pause.
   */
  pause_resumes_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
}
export type SubscriptionRow = Selectable<SubscriptionsTable>;

/** A percentage or a fixed amount off; `once` on the first charge, `forever` on every charge. */
export interface CouponsTable {
  id: string;
  code: string;
  description: string | null;
  percent_off: number | null;
  amount_off_minor: number | null;
  currency: string | null;
  duration: 'once' | 'forever';
  expires_at: string | null;
  max_redemptions: number | null;
  redeemed_count: number;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}
export type CouponRow = Selectable<CouponsTable>;

/** One customer's use of a coupon, on an order or a subscription. */
export interface CouponRedemptionsTable {
  id: string;
  coupon_id: string;
  user_id: string | null;
  payment_id: string | null;
  subscription_id: string | null;
  discount_minor: number;
  created_at: string;
}

/** One of our plans at one price, as the provider knows it. */
export interface ProviderPlansTable {
  provider: PaymentProviderName;
  plan_id: string;
  price_minor: number;
  currency: string;
  billing_interval: 'month' | 'year';
  provider_plan_id: string;
  created_at: string;
}

/** Which server runs the scheduled work now; another takes over once `expires_at` has passed. */
export interface SchedulerLeasesTable {
  name: string;
  holder: string;
  expires_at: string;
}

/** A notice the scheduler has given, once: a reminder, a grace-ending mail. */
export interface ScheduledNoticesTable {
  subject_id: string;
  kind: string;
  occasion: string;
  created_at: string;
}

/** Webhook deliveries already handled, by the provider's event id: a redelivery is answered, not reapplied. */
export interface PaymentWebhookEventsTable {
  id: string;
  provider: PaymentProviderName;
  event_type: string;
  payment_id: string | null;
  outcome: 'received' | 'processed' | 'ignored' | 'rejected';
  received_at: string;
}

/** Where a mail waits until it is sent: `pending` until sent, `failed` once its attempts ran out. */
export type MailStatus = 'pending' | 'sent' | 'failed' | 'dropped';

export interface MailOutboxTable {
  id: string;
  /** The `Message-ID` header, fixed when queued, so a mail sent twice folds into one in mail clients. */
  message_id: string;
  /** The template or request the mail comes from, e.g. `verification` or `password_reset`. */
  kind: string;
  recipient: string;
  /** Null until the content is decided: see {@link request}. */
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
  /** The link the mail is about, logged when mail goes to the file outbox. */
  link: string | null;
  /** JSON of what a deferred mail needs to decide its content when the worker first takes it. */
  request: string | null;
  /** JSON list of files to send with it: references resolved when sent, or bytes as base64. */
  attachments: string | null;
  /** Optional mail's one-click unsubscribe link (`List-Unsubscribe`). */
  unsubscribe_url: string | null;
  /** Where a reply goes when not to the sender (a support request: the customer's address). */
  reply_to: Generated<string | null>;
  /** The request that queued the mail (see migration 0037): the mail's X-Request-Id, its trace. */
  request_id: Generated<string | null>;
  traceparent: Generated<string | null>;
  status: MailStatus;
  attempts: Generated<number>;
  next_attempt_at: string;
  /** A worker holds the row until then; after a crash another takes it again. */
  claimed_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}
export type MailOutboxRow = Selectable<MailOutboxTable>;

/** A customer's message from the portal's contact form. */
export interface SupportRequestsTable {
  id: string;
  /** What the customer quotes in later mail, e.g. `SR-7KQ2M4PX`. */
  reference: string;
  /** Null once the account is deleted. */
  user_id: string | null;
  /** The customer's address when they wrote: replies go there. */
  email: string;
  topic: string;
  subject: string;
  message: string;
  /** The app and account information, only when the customer agreed to send it. */
  diagnostics: string | null;
  handled_at: string | null;
  handled_by: string | null;
  created_at: string;
}
export type SupportRequestRow = Selectable<SupportRequestsTable>;

/** A customer's billing name and address, printed on the invoices issued after it was saved. */
export interface BillingDetailsTable {
  user_id: string;
  name: string;
  address_line1: string;
  address_line2: string | null;
  city: string;
  postal_code: string;
  region: string | null;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  /** A GSTIN when the country is IN, else the country's own tax id. */
  tax_id: string | null;
  updated_at: string;
}
export type BillingDetailsRow = Selectable<BillingDetailsTable>;

/** The last number issued in a series; incremented in the transaction that issues the next one. */
export interface DocumentCountersTable {
  series: string;
  last_number: number;
}

/** What the administrator chose for the license when refunding. */
export type RefundLicenseAction = 'keep' | 'revoke' | 'shorten';

/** Money given back on a paid payment (recorded locally in the sandbox, through Razorpay otherwise). */
export interface RefundsTable {
  id: string;
  payment_id: string;
  amount_minor: number;
  currency: string;
  /** `pending` while the provider is asked (the amount is already reserved), then `processed`. */
  status: 'pending' | 'processed';
  provider_refund_id: string | null;
  reason: string | null;
  license_action: RefundLicenseAction;
  actor_id: string | null;
  created_at: string;
}
export type RefundRow = Selectable<RefundsTable>;

export type InvoiceKind = 'invoice' | 'credit_note';

/** An invoice (one per paid payment) or a credit note (one per refund); amounts in minor units. */
export interface InvoicesTable {
  id: string;
  kind: InvoiceKind;
  series: string;
  sequence: number;
  /** `series-000042`: unique, never reused, no gaps within a series. */
  number: string;
  user_id: string | null;
  payment_id: string | null;
  refund_id: string | null;
  /** The invoice a credit note corrects. */
  invoice_id: string | null;
  currency: string;
  /** Before tax; negative on credit notes. */
  subtotal_minor: number;
  tax_minor: number;
  total_minor: number;
  tax_name: string;
  tax_rate_bp: number;
  /** 1 when the plan price included the tax. */
  tax_inclusive: number;
  /** JSON text of the seller's details at issue time. */
  seller: string;
  /** JSON text of the buyer's billing details at issue time. */
  buyer: string;
  /** JSON text of the lines. */
  lines: string;
  issued_at: string;
  /** 1 when the lines' amounts include the tax; 0 (invoices issued before itemising): before tax. */
  lines_include_tax: Generated<number>;
  /** JSON text of the tax by kind (`InvoiceTaxLine[]`); null on older invoices (one line of `tax_name`). */
  taxes: Generated<string | null>;
  /** The place of supply as printed, e.g. `Karnataka (29)`; null when the tax is not India's GST. */
  place_of_supply: Generated<string | null>;
  /** The provider's payment id (else its order id) that paid the invoice. */
  payment_reference: Generated<string | null>;
  /** The service period the charge pays for; null for a lifetime and on credit notes. */
  period_start: Generated<string | null>;
  period_end: Generated<string | null>;
  /** The organisation billed, when the purchase was an organisation's. */
  organisation_id: Generated<string | null>;
  /** How the sale was taxed at issue (`TaxTreatmentKind`); null on invoices from before migration 0053. */
  tax_treatment: Generated<string | null>;
  /** JSON text of the notes printed under the totals (the LUT note, the reverse charge wording). */
  tax_notes: Generated<string | null>;
}
export type InvoiceRow = Selectable<InvoicesTable>;

/** A device or network an account signed in from; a sign-in from one not seen lately is told to its owner. */
export interface SignInSourcesTable {
  user_id: string;
  kind: 'device' | 'network';
  /** "Chrome on Linux", or the address's network ("203.0.113.0/24", "2001:db8:1:2::/64"). */
  value: string;
  first_seen_at: string;
  last_seen_at: string;
}

/** An account's authenticator app; `secret_ciphertext` is AES-GCM under the server's two-factor key. */
export interface TotpAuthenticatorsTable {
  user_id: string;
  secret_ciphertext: string;
  confirmed_at: string | null;
  /** The last time step a code was accepted for; codes of that step or earlier are replays. */
  last_used_step: number | null;
  created_at: string;
}

export interface RecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  used_at: string | null;
  created_at: string;
}

/** A WebAuthn credential; `credential_id` and `public_key` are base64url. */
export interface PasskeysTable {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  sign_count: number;
  /** JSON array of transports, or null. */
  transports: string | null;
  device_type: string;
  backed_up: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}
export type PasskeyRow = Selectable<PasskeysTable>;

/**
 * `second_factor`: a password sign-in waiting for its second factor; `federated_second_factor`: a
 * single sign-on waiting for the account's own second factor (the session's methods say which).
 */
export type AuthChallengeKind =
  'second_factor' | 'federated_second_factor' | 'passkey_sign_in' | 'passkey_registration' | 'step_up';

/** A short-lived, single-use challenge: a sign-in waiting for its second factor, or a WebAuthn ceremony's. */
export interface AuthChallengesTable {
  id: string;
  kind: AuthChallengeKind;
  user_id: string | null;
  /** SHA-256 of the token the client holds, when it holds one. */
  token_hash: string | null;
  webauthn_challenge: string | null;
  attempts: Generated<number>;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
export type AuthChallengeRow = Selectable<AuthChallengesTable>;

export interface Database
  extends
    ApiTokenTables,
    WebhookTables,
    OrganisationTables,
    ReleaseTables,
    OfflineActivationTables,
    PlanChangeQuoteTables,
    TrialTables,
    UsageOverageTables,
    MemberUsageTables,
    FloatingTables,
    FairUseTables,
    ScimTables {
  users: UsersTable;
  refresh_token_families: RefreshTokenFamiliesTable;
  refresh_tokens: RefreshTokensTable;
  email_tokens: EmailTokensTable;
  security_events: SecurityEventsTable;
  data_exports: DataExportsTable;
  login_throttles: LoginThrottlesTable;
  features: FeaturesTable;
  plans: PlansTable;
  plan_features: PlanFeaturesTable;
  plan_prices: PlanPricesTable;
  licenses: LicensesTable;
  activations: ActivationsTable;
  usage_events: UsageEventsTable;
  usage_counters: UsageCountersTable;
  usage_daily: UsageDailyTable;
  usage_reservations: UsageReservationsTable;
  usage_packs: UsagePacksTable;
  usage_pack_orders: UsagePackOrdersTable;
  releases: ReleasesTable;
  settings: SettingsTable;
  payments: PaymentsTable & PaymentDismissalColumns;
  payment_webhook_events: PaymentWebhookEventsTable;
  subscriptions: SubscriptionsTable;
  scheduled_notices: ScheduledNoticesTable;
  scheduler_leases: SchedulerLeasesTable;
  provider_plans: ProviderPlansTable;
  coupons: CouponsTable;
  coupon_redemptions: CouponRedemptionsTable;
  mail_outbox: MailOutboxTable;
  support_requests: SupportRequestsTable;
  sign_in_sources: SignInSourcesTable;
  billing_details: BillingDetailsTable;
  document_counters: DocumentCountersTable;
  refunds: RefundsTable;
  invoices: InvoicesTable;
  totp_authenticators: TotpAuthenticatorsTable;
  recovery_codes: RecoveryCodesTable;
  passkeys: PasskeysTable;
  auth_challenges: AuthChallengesTable;
}
