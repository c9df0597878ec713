import { z } from 'zod';
import { type FingerprintComponents, fingerprintComponentsSchema } from '../fingerprint.js';
import { apiErrorSchema } from './errors.js';
import { displayText, isoDateTimeSchema } from './common.js';
import { FEATURE_KINDS, USAGE_PERIODS } from './features.js';
import { memberUsageSchema } from './member-usage.js';
import { seatHolderSchema } from './organisations.js';
import { BILLING_INTERVALS, creditPackSchema, overageSchema, planSchema } from './plans.js';

/**
 * `trial_expired`: a free trial whose end passed before the plan was bought. `paused`: its
 * subscription is paused; it is valid again when the subscription resumes (`paused_until`).
 */
export const LICENSE_STATUSES = [
  'active',
  'suspended',
  'revoked',
  'expired',
  'trial_expired',
  'paused',
] as const;
export type LicenseStatus = (typeof LICENSE_STATUSES)[number];

/** What a status check can answer: a license status, or why this machine has none. */
export const LICENSE_CHECK_STATUSES = [
  ...LICENSE_STATUSES,
  'invalid_key',
  'not_found',
  'not_activated',
  'deactivated',
] as const;
export type LicenseCheckStatus = (typeof LICENSE_CHECK_STATUSES)[number];

export const DOWNLOAD_PLATFORMS = ['windows', 'macos', 'linux'] as const;
export type DownloadPlatform = (typeof DOWNLOAD_PLATFORMS)[number];

export const MAX_USAGE_AMOUNT = 1_000_000;
export const MAX_USAGE_DATA_BYTES = 4096;

/** Typed keys are checked for shape and check characters by the server, which names the problem. */
export const licenseKeyInputSchema = z
  .string()
  .trim()
  .min(1, 'Enter a license key')
  .max(64, 'This is not a license key');

/** Any stable per-machine identifier: the desktop shell sends a salted hash of the machine id. */
export const hardwareIdSchema = z
  .string()
  .trim()
  .min(8, 'Hardware id must be at least 8 characters')
  .max(128, 'Hardware id must be at most 128 characters')
  .regex(/^[A-Za-z0-9._:-]+$/, 'Hardware id may contain letters, digits, ".", "_", ":" and "-"');

export const licenseIdSchema = z.uuid('Not a license id');
export const activationIdSchema = z.uuid('Not a machine id');

const deviceFields = {
  device_name: displayText(100).optional(),
  platform: displayText(40).optional(),
  app_version: displayText(40).optional(),
  components: fingerprintComponentsSchema.optional(),
};

export const activationSchema = z
  .object({
    activation_id: z.string(),
    license_id: z.string(),
    hardware_id: z.string(),
    label: z
      .string()
      .nullable()
      .describe('The name the owner gave the machine; shown in preference to device_name'),
    device_name: z.string().nullable().describe('The name the device reported when it was last activated'),
    platform: z.string().nullable(),
    app_version: z.string().nullable(),
    activated_at: isoDateTimeSchema,
    last_seen_at: isoDateTimeSchema,
    deactivated_at: isoDateTimeSchema.nullable(),
    deactivated_reason: z.enum(['user', 'admin', 'reclaimed', 'seat_removed']).nullable(),
  })
  .meta({ id: 'Activation' });
export type Activation = z.infer<typeof activationSchema>;

/** How many machines a license may still deactivate under its plan's cap. */
export const machineChangesSchema = z
  .object({
    limit: z.number().int().describe('Machines the plan lets a license deactivate in a rolling window'),
    used: z.number().int().describe('Deactivations that count in the window now'),
    window_days: z.number().int(),
    next_possible_at: isoDateTimeSchema
      .nullable()
      .describe('When the cap is used: the moment the next deactivation becomes possible. Null otherwise'),
  })
  .meta({ id: 'MachineChanges' });
export type MachineChanges = z.infer<typeof machineChangesSchema>;

/** One feature of a license with its use in the current period. */
export const featureUsageSchema = z
  .object({
    feature_id: z.string(),
    key: z.string(),
    name: z.string(),
    kind: z.enum(FEATURE_KINDS),
    period: z.enum(USAGE_PERIODS).nullable(),
    unit: z.string().nullable(),
    /** Units allowed per period; null means unlimited. */
    limit: z.number().int().nullable(),
    overage: overageSchema,
    pack: creditPackSchema.nullable().describe('The credit pack on sale for this feature; null when none is'),
    used: z.number().int(),
    remaining: z
      .number()
      .int()
      .nullable()
      .describe('Units left this period: of the allowance, and of the credit packs after it'),
    from_packs: z.number().int().describe('Units of this period’s use drawn from credit packs'),
    packs_left: z.number().int().describe('Units left in the license’s credit packs of this feature'),
    over_allowance: z
      .number()
      .int()
      .describe('Units used past the allowance and the credit packs this period (billed or capped)'),
    available: z
      .boolean()
      .describe('Whether more can be used now: within the allowance, or past it when billed'),
    message: z.string(),
    period_start: isoDateTimeSchema.nullable(),
    period_end: isoDateTimeSchema.nullable(),
  })
  .meta({ id: 'FeatureUsage' });
export type FeatureUsage = z.infer<typeof featureUsageSchema>;

export const usageInfoSchema = z.object({ features: z.array(featureUsageSchema) }).meta({ id: 'UsageInfo' });

export const licensePlanSummarySchema = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  billing_interval: z.enum(BILLING_INTERVALS),
});

/**
 * The key as a member of the license's organisation sees it: members activate by signing in and
 * never see the organisation's key, so it keeps only the key's shape.
 */
export const MASKED_LICENSE_KEY = '*****-*****-*****-*****-*****';

/** The organisation a license belongs to: its members' seats are on it. */
export const licenseOrganisationSchema = z
  .object({ id: z.string(), name: z.string() })
  .meta({ id: 'LicenseOrganisation' });
export type LicenseOrganisation = z.infer<typeof licenseOrganisationSchema>;

/** A free trial as the license check and the lease tell it: when it ends, and whole days left (0 once ended). */
export const licenseTrialSchema = z
  .object({
    ends_at: isoDateTimeSchema,
    days_left: z.number().int().min(0).describe('Days until the end, rounded up; 0 once it has ended'),
  })
  .meta({ id: 'LicenseTrial' });
export type LicenseTrial = z.infer<typeof licenseTrialSchema>;

/**
 * Where a trial came from: a signed-in account; a subscription checked out with a card (charged
 * at the trial's end); or a machine trial the desktop app started before any account, which the
 * account took over (its end is the machine trial's).
 */
export const TRIAL_SOURCES = ['account', 'card', 'machine'] as const;

/** The trial on a license's own view: with its start and source. */
export const licenseTrialDetailsSchema = licenseTrialSchema
  .extend({ started_at: isoDateTimeSchema, source: z.enum(TRIAL_SOURCES) })
  .meta({ id: 'LicenseTrialDetails' });
export type LicenseTrialDetails = z.infer<typeof licenseTrialDetailsSchema>;

export const licenseSchema = z
  .object({
    license_id: z.string(),
    license_key: z
      .string()
      .describe(
        `Masked (${MASKED_LICENSE_KEY}) when a member of the license's organization looks: members activate by signing in`,
      ),
    user_id: z
      .string()
      .nullable()
      .describe('The owner; null when seen by someone else who activated with a key the owner shared'),
    plan_id: z.string(),
    plan: licensePlanSummarySchema,
    subscription_id: z.string().nullable().describe('Null as well when seen by someone other than the owner'),
    /** Effective status: an active license past its expiry reads as expired. */
    status: z.enum(LICENSE_STATUSES),
    expires_at: isoDateTimeSchema.nullable(),
    paused_until: isoDateTimeSchema
      .nullable()
      .describe(
        'While `paused`: when its subscription resumes and the license is valid again; null otherwise',
      ),
    renews: z
      .boolean()
      .describe(
        'True when an active subscription will renew the license at `expires_at` (not canceled, paid up)',
      ),
    updates_until: isoDateTimeSchema
      .nullable()
      .describe(
        'A perpetual license: it never expires, and covers the releases published before this moment (its update window). Null otherwise',
      ),
    update_window_ended: z
      .boolean()
      .describe('True once a perpetual license’s update window has ended: newer releases need a renewal'),
    covered_version: z
      .string()
      .nullable()
      .optional()
      .describe(
        'Once a perpetual license’s update window ended, on its owner’s views: the newest version released inside the window (null when none was)',
      ),
    next_version: z
      .string()
      .nullable()
      .optional()
      .describe(
        'With covered_version: the first version released after the window, which renewing updates brings (null when none is out yet)',
      ),
    max_activations: z.number().int(),
    activations_used: z.number().int(),
    revoked_reason: z.string().nullable(),
    revoked_at: isoDateTimeSchema.nullable(),
    created_at: isoDateTimeSchema,
    updated_at: isoDateTimeSchema,
    usage_info: usageInfoSchema,
    activations: z
      .array(activationSchema)
      .optional()
      .describe('The machines; someone other than the owner sees only the ones they activated'),
    machine_changes: machineChangesSchema
      .optional()
      .describe('On the detail view: the deactivations the plan’s cap allows, used and next possible'),
    floating: z
      .boolean()
      .describe(
        'True on a floating plan: a machine takes one of its seats while the app runs (`/licensing/floating/checkout`) and is never activated on it (activation answers 409 `license_floating`)',
      ),
    organisation: licenseOrganisationSchema
      .nullable()
      .describe('The organization that provides the license to its members; null for a personal license'),
    trial: licenseTrialDetailsSchema
      .nullable()
      .describe('While the license is a free trial (also once it ended unpaid); null otherwise'),
  })
  .meta({ id: 'License' });
export type License = z.infer<typeof licenseSchema>;

export const licenseListSchema = z.array(licenseSchema).meta({ id: 'LicenseList' });

export const activateLicenseRequestSchema = z
  .strictObject({ license_key: licenseKeyInputSchema, hardware_id: hardwareIdSchema, ...deviceFields })
  .meta({ id: 'ActivateLicenseRequest' });
export type ActivateLicenseRequest = z.infer<typeof activateLicenseRequestSchema>;

export const activateBaseLicenseRequestSchema = z
  .strictObject({ hardware_id: hardwareIdSchema, ...deviceFields })
  .meta({ id: 'ActivateBaseLicenseRequest' });
export type ActivateBaseLicenseRequest = z.infer<typeof activateBaseLicenseRequestSchema>;

/** A member activates the machine they call from on their seat of the organisation's license. */
export const activateSeatRequestSchema = z
  .strictObject({ hardware_id: hardwareIdSchema, ...deviceFields })
  .meta({ id: 'ActivateSeatRequest' });
export type ActivateSeatRequest = z.infer<typeof activateSeatRequestSchema>;

/** The license with the machine's activation and a signed offline lease for it. */
export const activationResultSchema = licenseSchema
  .extend({
    activation: activationSchema,
    lease: z.string().describe('Ed25519-signed compact JWS; verify with GET /licensing/public-key'),
    lease_expires_at: isoDateTimeSchema,
    message: z.string(),
  })
  .meta({ id: 'ActivationResult' });
export type ActivationResult = z.infer<typeof activationResultSchema>;

/** Starts the signed-in customer's free trial of a plan, activating this machine when its id is sent. */
export const startTrialRequestSchema = z
  .strictObject({
    plan_id: z.string().trim().min(1, 'plan_id is required').max(64),
    hardware_id: hardwareIdSchema.optional(),
    ...deviceFields,
  })
  .meta({ id: 'StartTrialRequest' });
export type StartTrialRequest = z.infer<typeof startTrialRequestSchema>;

/** The trial license, with this machine's activation and lease when a hardware id was sent. */
export const trialStartedSchema = licenseSchema
  .extend({
    activation: activationSchema.optional(),
    lease: z.string().optional(),
    lease_expires_at: isoDateTimeSchema.optional(),
    message: z.string(),
  })
  .meta({ id: 'TrialStarted' });
export type TrialStarted = z.infer<typeof trialStartedSchema>;

/** A refused trial start; a trial had before says when it ran. */
export const trialRefusalSchema = apiErrorSchema
  .extend({
    earlier_trial: z
      .object({ started_at: isoDateTimeSchema, ends_at: isoDateTimeSchema })
      .optional()
      .describe('The earlier trial of the plan (this account’s, this person’s or this machine’s)'),
  })
  .meta({ id: 'TrialRefusal' });
export type TrialRefusal = z.infer<typeof trialRefusalSchema>;
/** The version an app checking its license runs: a semantic version, compared with releases. */
export const appVersionSchema = z
  .string()
  .trim()
  .max(40, 'app_version must be at most 40 characters')
  .regex(
    /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/,
    'app_version must be a version number such as 2.4.0',
  )
  .describe(
    'The version the app runs. A perpetual license whose update window ended answers whether it covers it ' +
      '(a version no release carries is judged by its number)',
  );

/** A fresh random value per online check: the signed answer carries it, so it cannot be replayed. */
export const checkNonceSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,128}$/, 'nonce must be 16 to 128 base64url characters')
  .describe(
    'A fresh random value per check (16–128 base64url characters). The answer echoes it in `nonce` and signs it in `check`, so an answer captured earlier cannot be fed back to the app',
  );

export const validateLicenseRequestSchema = z
  .strictObject({
    license_key: licenseKeyInputSchema,
    hardware_id: hardwareIdSchema,
    app_version: appVersionSchema.optional(),
    nonce: checkNonceSchema.optional(),
    components: fingerprintComponentsSchema.optional(),
  })
  .meta({ id: 'ValidateLicenseRequest' });

/** The fingerprint components in a query: `name:hash` pairs joined by commas. */
const componentsQuerySchema = z
  .string()
  .max(500, 'components must be at most 500 characters')
  .transform((text) =>
    Object.fromEntries(
      text
        .split(',')
        .filter(Boolean)
        .map((pair) => pair.split(':', 2)),
    ),
  )
  .pipe(fingerprintComponentsSchema)
  .describe(
    'Hashed fingerprint components as `name:hash` pairs joined by commas (machine_id, cpu, disk, board, os_install); older apps send none',
  );

export const licenseStatusQuerySchema = z.object({
  license_key: licenseKeyInputSchema,
  hardware_id: hardwareIdSchema,
  app_version: appVersionSchema.optional(),
  nonce: checkNonceSchema.optional(),
  components: componentsQuerySchema.optional(),
});

/** What a license check asks: the key, the machine and, optionally, the version the app runs and its nonce. */
export interface LicenseCheckRequest {
  license_key: string;
  hardware_id: string;
  app_version?: string | undefined;
  nonce?: string | undefined;
  components?: FingerprintComponents | undefined;
}

/**
 * A valid license on this machine: the status the portal shows plus what the desktop needs
 * offline. Compact: nothing the caller sent (key, hardware id) comes back, and the machine is
 * named by its activation id; the full record is on `GET /licenses/{id}`.
 */
export const licenseStatusSchema = z
  .object({
    valid: z.literal(true),
    status: z.literal('active'),
    message: z.string(),
    requires_activation: z.literal(false),
    license_id: z.string(),
    plan: licensePlanSummarySchema,
    expires_at: isoDateTimeSchema.nullable(),
    features: z.array(featureUsageSchema),
    activation_id: z
      .string()
      .nullable()
      .describe('The machine’s activation; null when it runs on a floating seat (see `floating_seat`)'),
    floating_seat: z
      .object({
        seat_id: z.string(),
        held_until: isoDateTimeSchema.describe(
          'The seat comes back then unless a heartbeat renews it (or, borrowed, when the borrow ends)',
        ),
        borrowed_until: isoDateTimeSchema.nullable().describe('While borrowed for offline use: until when'),
      })
      .optional()
      .describe(
        'On a floating license: the seat this machine holds, which is what makes it licensed here; ' +
          'the lease lasts no longer than the seat is held',
      ),
    seat: seatHolderSchema
      .nullable()
      .describe(
        'On an organization’s license: the organization and the member whose seat this machine is on',
      ),
    trial: licenseTrialSchema.nullable().describe('While the license is a free trial; null otherwise'),
    lease: z.string(),
    lease_expires_at: isoDateTimeSchema,
    updates_until: isoDateTimeSchema
      .optional()
      .describe('A perpetual license: the releases published before this moment are covered'),
    update_window_ended: z
      .boolean()
      .optional()
      .describe(
        'A perpetual license whose update window has ended: still valid, but newer versions need a renewal',
      ),
    covered_version: z
      .string()
      .nullable()
      .optional()
      .describe(
        'Once the window ended: the newest version the license covers (null when none was released inside it). ' +
          'An app_version above it gets the message "Your license covers versions up to 2.3. Renew updates to get 2.4 and later."',
      ),
    nonce: checkNonceSchema.optional().describe('The nonce the check sent, echoed; absent when it sent none'),
    check: z
      .string()
      .optional()
      .describe(
        'With a nonce: a JWS (typ check+jwt, the lease keys) binding the nonce, license, machine and this answer’s lease, valid for minutes',
      ),
  })
  .meta({ id: 'LicenseStatus' });
export type LicenseStatusAnswer = z.infer<typeof licenseStatusSchema>;

/**
 * Why a key or machine is not licensed: the error body plus the status-check fields. The
 * status fields are absent when the request itself was malformed (a validation error).
 */
export const licenseRefusalSchema = apiErrorSchema
  .extend({
    valid: z.literal(false).optional(),
    status: z.enum(LICENSE_CHECK_STATUSES).optional(),
    requires_activation: z.boolean().optional(),
    resumes_at: isoDateTimeSchema
      .optional()
      .describe('With status `paused`: when the subscription resumes and the license is valid again'),
  })
  .meta({ id: 'LicenseRefusal' });
export type LicenseRefusal = z.infer<typeof licenseRefusalSchema>;

export const MACHINE_LABEL_MAX = 64;

/** A name for a machine: trimmed, 1 to 64 characters, no control characters. */
export const machineLabelSchema = z
  .string()
  .trim()
  .min(1, 'Enter a name for the machine')
  .max(MACHINE_LABEL_MAX, `A machine name must be at most ${MACHINE_LABEL_MAX} characters`)
  .regex(/^[^\p{Cc}\p{Cs}]*$/u, 'A machine name must not contain control characters');

/** Names a machine; null drops the name, and the machine goes by the name its device reports. */
export const renameActivationRequestSchema = z
  .strictObject({ label: machineLabelSchema.nullable() })
  .meta({ id: 'RenameActivationRequest' });
export type RenameActivationRequest = z.infer<typeof renameActivationRequestSchema>;

export const deactivateRequestSchema = z
  .strictObject({
    hardware_id: hardwareIdSchema.optional(),
    activation_id: z.string().min(1).max(64).optional(),
  })
  .refine((body) => (body.hardware_id === undefined) !== (body.activation_id === undefined), {
    message: 'Send either hardware_id or activation_id',
  })
  .meta({ id: 'DeactivateRequest' });

const usageDataSchema = z
  .record(z.string(), z.unknown())
  .default({})
  .refine((data) => JSON.stringify(data).length <= MAX_USAGE_DATA_BYTES, {
    message: `usageData must be at most ${MAX_USAGE_DATA_BYTES} bytes of JSON`,
  });

/** Feature usage tracking: featureId, usageAmount (default 1), usageData (default {}). */
export const trackUsageRequestSchema = z
  .strictObject({
    featureId: z.string().trim().min(1, 'featureId is required').max(64),
    usageAmount: z
      .number()
      .int('usageAmount must be a whole number')
      .min(1, 'usageAmount must be at least 1')
      .max(MAX_USAGE_AMOUNT, `usageAmount must be at most ${MAX_USAGE_AMOUNT}`)
      .default(1),
    usageData: usageDataSchema,
  })
  .meta({ id: 'TrackUsageRequest' });
export type TrackUsageRequest = z.input<typeof trackUsageRequestSchema>;

export const trackUsageResponseSchema = z
  .object({ license_id: z.string(), recorded: z.number().int(), feature: featureUsageSchema })
  .meta({ id: 'TrackUsageResponse' });

export const usageQuerySchema = z.object({
  days: z.coerce
    .number()
    .int()
    .min(1, 'days must be 1 or more')
    .max(366, 'days must be at most 366')
    .default(30),
});

export const overageOutlookSchema = z
  .object({
    feature_id: z.string(),
    projected_minor: z
      .number()
      .int()
      .describe('This period’s overage so far, priced as it will be billed, in the plan’s price terms'),
    owed_units: z.number().int().describe('Units past the allowance of ended periods, not billed yet'),
    owed_minor: z.number().int().describe('What those units cost, in the plan’s price terms'),
    billable: z
      .boolean()
      .describe('False when the license has no subscription renewing: its overage is never charged'),
    charged_on: z
      .string()
      .nullable()
      .describe('When ended periods’ overage is charged: the subscription’s next renewal'),
  })
  .meta({ id: 'OverageOutlook' });
export type OverageOutlook = z.infer<typeof overageOutlookSchema>;
/** A credit pack of one of the license's features, with what is left of it. */
export const usagePackSchema = z
  .object({
    id: z.string(),
    feature_id: z.string(),
    units: z.number().int(),
    used: z.number().int(),
    left: z.number().int().describe('Units still to draw, until it expires'),
    source: z.enum(['purchase', 'grant']).describe('Bought by the customer, or granted by an administrator'),
    created_at: isoDateTimeSchema,
    expires_at: isoDateTimeSchema,
  })
  .meta({ id: 'UsagePack' });
export type UsagePack = z.infer<typeof usagePackSchema>;

export const licenseUsageSchema = z
  .object({
    license_id: z.string(),
    usage_info: usageInfoSchema,
    currency: z
      .string()
      .describe('The plan’s currency: each feature’s `overage.price_minor` is in its minor unit'),
    history: z
      .array(
        z.object({
          date: z.string().describe('YYYY-MM-DD, UTC'),
          feature_id: z.string(),
          key: z.string(),
          amount: z.number().int(),
        }),
      )
      .describe('Units used per feature and day over the requested days'),
    overage: z
      .array(overageOutlookSchema)
      .describe(
        'Per feature billed past its allowance: the overage projected and owed, and when it is charged',
      ),
    member_usage: memberUsageSchema
      .nullable()
      .optional()
      .describe('On an organization’s license, the caller’s own use and caps; null (or absent) otherwise'),
    packs: z
      .array(usagePackSchema)
      .describe('The credit packs not expired or refunded, earliest expiry first (drawn in that order)'),
  })
  .meta({ id: 'LicenseUsage' });

/** The most credit packs one order may buy. */
export const MAX_PACKS_PER_ORDER = 100;

/** An order for credit packs of one of the license's metered features. */
export const buyCreditPacksRequestSchema = z
  .strictObject({
    feature: z
      .string('Name the feature by its id or key')
      .trim()
      .min(1, 'Name the feature by its id or key')
      .max(64),
    quantity: z
      .number('Say how many packs')
      .int('Packs are bought whole')
      .min(1, 'Buy at least 1 pack')
      .max(MAX_PACKS_PER_ORDER, `At most ${MAX_PACKS_PER_ORDER} packs can be bought at once`)
      .default(1),
  })
  .meta({ id: 'BuyCreditPacksRequest' });
export type BuyCreditPacksRequest = z.input<typeof buyCreditPacksRequestSchema>;

export const licenseFeaturesSchema = z
  .object({ license_id: z.string(), features: z.array(featureUsageSchema) })
  .meta({ id: 'LicenseFeatures' });

export const activatePlanRequestSchema = z
  .strictObject({
    planId: z.string().trim().min(1, 'planId is required').max(64),
    userInfo: z
      .record(z.string(), z.unknown())
      .default({})
      .refine((info) => JSON.stringify(info).length <= 2048, 'userInfo must be at most 2048 bytes of JSON'),
  })
  .meta({ id: 'ActivatePlanRequest' });

export const changePlanRequestSchema = z
  .strictObject({ planId: z.string().trim().min(1, 'planId is required').max(64) })
  .meta({ id: 'ChangePlanRequest' });

export const downloadQuerySchema = z.object({ platform: z.enum(DOWNLOAD_PLATFORMS).optional() });

export const releaseSchema = z
  .object({
    platform: z.enum(DOWNLOAD_PLATFORMS),
    version: z.string(),
    file_name: z.string(),
    size_bytes: z.number().int(),
    sha256: z.string(),
    published_at: isoDateTimeSchema,
    url: z.string().describe('Signed link to the installer, valid until url_expires_at'),
    url_expires_at: isoDateTimeSchema,
  })
  .meta({ id: 'Release' });
export type Release = z.infer<typeof releaseSchema>;

export const downloadResponseSchema = z
  .object({ license_id: z.string(), releases: z.array(releaseSchema) })
  .meta({ id: 'DownloadResponse' });

export const leaseSigningKeysSchema = z
  .object({
    keys: z.array(
      z.object({
        kty: z.literal('OKP'),
        crv: z.literal('Ed25519'),
        x: z.string(),
        kid: z.string(),
        alg: z.literal('EdDSA'),
        use: z.literal('sig'),
      }),
    ),
  })
  .meta({ id: 'LeaseSigningKeys' });
export type LeaseSigningKeys = z.infer<typeof leaseSigningKeysSchema>;

export const licensingSettingsSchema = z
  .object({
    seat_reclaim_after_days: z
      .number()
      .int()
      .min(1, 'Use at least 1 day, or null to never reclaim seats')
      .max(3650)
      .nullable()
      .describe('A machine unseen for this many days gives up its seat when another machine needs it'),
  })
  .meta({ id: 'LicensingSettings' });
export type LicensingSettings = z.infer<typeof licensingSettingsSchema>;

export const currentPlanSchema = z
  .object({
    plan: planSchema.nullable(),
    license: licenseSchema.nullable().describe('The license that gives the plan: the best active one'),
  })
  .meta({ id: 'CurrentPlan' });
