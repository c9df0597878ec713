import { z } from 'zod';
import { FINGERPRINT_COMPONENTS } from '../fingerprint.js';
import { MAX_SEATS, MAX_TRIAL_DAYS } from './plans.js';
import { USER_ROLES, USER_STATUSES } from '../constants.js';
import { emailSchema, isoDateTimeSchema, newPasswordSchema } from './common.js';
import { activationSchema, LICENSE_STATUSES, licenseSchema } from './licenses.js';
import { accountFields, nameAndCompanyInput } from './users.js';
import { dateRange, orderedRange, pageQuerySchema, pagedSchema, rangeProblem } from './paging.js';

/** Schemas of the admin API: users, licenses, security events and the dashboard. */

export const SECURITY_SEVERITIES = ['info', 'warning', 'critical'] as const;
export type SecuritySeverityName = (typeof SECURITY_SEVERITIES)[number];

export const userIdSchema = z.uuid('Not a user id');

/** An account's e-mail address: confirmed through its link (or by an administrator), or not yet. */
export const EMAIL_VERIFICATION_STATES = ['confirmed', 'unconfirmed'] as const;
export type EmailVerificationState = (typeof EMAIL_VERIFICATION_STATES)[number];

/** An account as administrators see it: no preferences (those are the user's own business). */
export const adminUserSchema = z
  .object({
    ...accountFields,
    last_sign_in_at: isoDateTimeSchema.nullable().describe('When the newest session started'),
    created_at: isoDateTimeSchema,
    updated_at: isoDateTimeSchema,
  })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUserDetailSchema = adminUserSchema
  .extend({
    email_verified_at: isoDateTimeSchema
      .nullable()
      .describe('When the address was confirmed (by its link or an administrator); null while it is not'),
    second_factors: z
      .object({
        authenticator_app: z.boolean().describe('An authenticator app is enrolled and confirmed'),
        passkeys: z.number().int().describe('Passkeys registered to the account'),
      })
      .describe('How the account proves a sign-in beyond its password'),
    counts: z.object({
      licenses: z.number().int(),
      active_activations: z.number().int().describe('Machines holding a seat on any of the licenses'),
      payments: z.number().int(),
    }),
  })
  .meta({ id: 'AdminUserDetail' });
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

export const adminUserListQuerySchema = pageQuerySchema([
  'created_at',
  'updated_at',
  'email',
  'full_name',
  'role',
  'status',
])
  .extend({
    role: z.enum(USER_ROLES).optional(),
    status: z.enum(USER_STATUSES).optional(),
    verification: z
      .enum(EMAIL_VERIFICATION_STATES)
      .optional()
      .describe('Whether the account’s e-mail address is confirmed'),
    ...dateRange,
  })
  .refine(orderedRange, rangeProblem);
export const adminUserListSchema = pagedSchema(adminUserSchema).meta({ id: 'AdminUserList' });

/** The answer to a resent confirmation mail. */
export const resendConfirmationResponseSchema = z
  .object({ message: z.string() })
  .meta({ id: 'ResendConfirmationResponse' });

export const createAdminUserRequestSchema = z
  .strictObject({
    email: emailSchema,
    password: newPasswordSchema,
    role: z.enum(USER_ROLES).default('user'),
    status: z.enum(USER_STATUSES).default('active'),
    ...nameAndCompanyInput,
    email_verified: z
      .boolean()
      .default(true)
      .describe('An administrator vouches for the address; false makes the user confirm it first'),
  })
  .meta({ id: 'CreateAdminUserRequest' });
export type CreateAdminUserRequest = z.input<typeof createAdminUserRequestSchema>;

export const updateAdminUserRequestSchema = z
  .strictObject({
    email: emailSchema.optional(),
    ...nameAndCompanyInput,
    role: z.enum(USER_ROLES).optional(),
    status: z.enum(USER_STATUSES).optional(),
    email_verified: z.boolean().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Send at least one field to change')
  .meta({ id: 'UpdateAdminUserRequest' });
export type UpdateAdminUserRequest = z.input<typeof updateAdminUserRequestSchema>;

/** A license with its owner's e-mail (null once the account is gone); the detail adds activations. */
export const adminLicenseSchema = licenseSchema
  .extend({
    user_id: z.string(),
    user_email: z.string().nullable(),
    seats: z
      .object({
        bought: z.number().int().describe('Seats the organization paid for'),
        held: z.number().int().describe('Members holding a seat now'),
        machines_per_seat: z.number().int().describe('Machines each seat may activate'),
      })
      .nullable()
      .describe(
        'A Business (organization) license’s seats; null for a personal one, whose max_activations are machines',
      ),
  })
  .meta({ id: 'AdminLicense' });
export type AdminLicense = z.infer<typeof adminLicenseSchema>;

export const adminLicenseListQuerySchema = pageQuerySchema([
  'created_at',
  'updated_at',
  'expires_at',
  'user_email',
  'plan_name',
])
  .extend({
    status: z
      .enum(LICENSE_STATUSES)
      .optional()
      .describe('Effective status: an active license past expiry is expired'),
    planId: z.string().trim().min(1).max(64).optional(),
    userId: userIdSchema.optional(),
    ...dateRange,
  })
  .refine(orderedRange, rangeProblem);
export const adminLicenseListSchema = pagedSchema(adminLicenseSchema).meta({ id: 'AdminLicenseList' });

const expirySchema = isoDateTimeSchema
  .pipe(z.iso.datetime({ offset: true }))
  .transform((value) => new Date(value).toISOString())
  .nullable()
  .describe('ISO date-time with offset; null never expires');

const seatsSchema = z
  .number()
  .int('max_activations must be a whole number')
  .min(1, 'max_activations must be at least 1')
  .max(MAX_SEATS, `max_activations must be at most ${MAX_SEATS}`);

export const createAdminLicenseRequestSchema = z
  .strictObject({
    user_id: userIdSchema,
    plan_id: z.string().trim().min(1, 'plan_id is required').max(64),
    expires_at: expirySchema.optional().describe('Defaults to the end of the plan’s billing interval'),
    max_activations: seatsSchema.optional().describe('Defaults to the plan’s seat limit'),
  })
  .meta({ id: 'CreateAdminLicenseRequest' });
export type CreateAdminLicenseRequest = z.input<typeof createAdminLicenseRequestSchema>;

/** A revoked license is final: it cannot be set active again (issue a new one instead). */
export const updateAdminLicenseRequestSchema = z
  .strictObject({
    status: z.enum(['active', 'suspended']).optional(),
    expires_at: expirySchema.optional(),
    max_activations: seatsSchema.optional(),
    plan_id: z.string().trim().min(1).max(64).optional(),
    updates_until: isoDateTimeSchema
      .pipe(z.iso.datetime({ offset: true }))
      .transform((value) => new Date(value).toISOString())
      .optional()
      .describe(
        'A perpetual license’s update window: releases published before it are covered. A past moment ends the window now',
      ),
  })
  .refine((body) => Object.keys(body).length > 0, 'Send at least one field to change')
  .meta({ id: 'UpdateAdminLicenseRequest' });
export type UpdateAdminLicenseRequest = z.input<typeof updateAdminLicenseRequestSchema>;

/** An administrator extends a free trial by some days (from its end, or from now once it ended), or ends it now. */
export const changeTrialRequestSchema = z
  .discriminatedUnion(
    'action',
    [
      z.strictObject({
        action: z.literal('extend'),
        days: z
          .number('days is required: how many days to add')
          .int('days must be a whole number')
          .min(1, 'days must be at least 1')
          .max(MAX_TRIAL_DAYS, `days must be at most ${MAX_TRIAL_DAYS}`),
      }),
      z.strictObject({ action: z.literal('end') }),
    ],
    { error: 'action must be "extend" (with days) or "end"' },
  )
  .meta({ id: 'ChangeTrialRequest' });
export type ChangeTrialRequest = z.infer<typeof changeTrialRequestSchema>;

export const REVOKE_REASON_MAX_LENGTH = 500;

/** The most units one grant may give, and the longest it may be valid. */
export const MAX_GRANT_UNITS = 100_000_000;
export const MAX_GRANT_VALID_MONTHS = 120;

/** `POST /admin/licenses/{id}/usage/grants`: units of a metered feature, with the reason for them. */
export const grantUsageRequestSchema = z
  .strictObject({
    feature: z
      .string('Name the feature by its id or key')
      .trim()
      .min(1, 'Name the feature by its id or key')
      .max(64),
    units: z
      .number('units is required: how many to grant')
      .int('units must be a whole number')
      .min(1, 'units must be at least 1')
      .max(MAX_GRANT_UNITS, `units must be at most ${MAX_GRANT_UNITS}`),
    reason: z
      .string({ error: 'reason is required: say why the units are granted' })
      .trim()
      .min(1, 'reason is required: say why the units are granted')
      .max(REVOKE_REASON_MAX_LENGTH, `reason must be at most ${REVOKE_REASON_MAX_LENGTH} characters`)
      .regex(/^[^\p{Cc}\p{Cs}]*$/u, 'reason must not contain control characters'),
    valid_months: z
      .number()
      .int('valid_months must be a whole number')
      .min(1, 'valid_months must be at least 1')
      .max(MAX_GRANT_VALID_MONTHS, `valid_months must be at most ${MAX_GRANT_VALID_MONTHS}`)
      .optional()
      .describe('How long the units may be drawn; USAGE_PACK_VALID_MONTHS when left out'),
  })
  .meta({ id: 'GrantUsageRequest' });
export type GrantUsageRequest = z.infer<typeof grantUsageRequestSchema>;

/** `POST /admin/licenses/{id}/deactivations/reset`: forgives a license's counted deactivations, with why. */
export const resetDeactivationsRequestSchema = z
  .strictObject({
    reason: z
      .string({ error: 'reason is required: say why the count is reset' })
      .trim()
      .min(1, 'reason is required: say why the count is reset')
      .max(REVOKE_REASON_MAX_LENGTH, `reason must be at most ${REVOKE_REASON_MAX_LENGTH} characters`)
      .regex(/^[^\p{Cc}\p{Cs}]*$/u, 'reason must not contain control characters'),
  })
  .meta({ id: 'ResetDeactivationsRequest' });
export type ResetDeactivationsRequest = z.infer<typeof resetDeactivationsRequestSchema>;

/** The pack a grant wrote. */
export const usageGrantSchema = z
  .object({
    id: z.string(),
    license_id: z.string(),
    feature_id: z.string(),
    units: z.number().int(),
    reason: z.string(),
    granted_by: z.string(),
    created_at: isoDateTimeSchema,
    expires_at: isoDateTimeSchema,
  })
  .meta({ id: 'UsageGrant' });
export type UsageGrant = z.infer<typeof usageGrantSchema>;

/** `POST /admin/licenses/{id}/revoke?reason=…`: the reason travels as query text, not in a body. */
export const revokeLicenseQuerySchema = z.object({
  reason: z
    .string({ error: 'reason is required: say why the license is revoked' })
    .trim()
    .min(1, 'reason is required: say why the license is revoked')
    .max(REVOKE_REASON_MAX_LENGTH, `reason must be at most ${REVOKE_REASON_MAX_LENGTH} characters`)
    .regex(/^[^\p{Cc}\p{Cs}]*$/u, 'reason must not contain control characters')
    .describe('Kept with the license and shown to its owner'),
});

/** A time a machine was known again by its fingerprint while some of its components had changed. */
export const componentChangeSchema = z
  .object({
    changed: z.array(z.enum(FINGERPRINT_COMPONENTS)).describe('The components that changed'),
    matched: z.number().int().describe('How many components matched'),
    changed_at: isoDateTimeSchema,
  })
  .meta({ id: 'ComponentChange' });

/** A machine as administrators see it: with the history of its fingerprint's changed components. */
export const adminActivationSchema = activationSchema
  .extend({
    components: z
      .object({
        machine_id: z.string().optional(),
        cpu: z.string().optional(),
        disk: z.string().optional(),
        board: z.string().optional(),
        os_install: z.string().optional(),
      })
      .nullable()
      .describe('The hashed components its app sent last (SHA-256); null when its app sends none'),
    component_changes: z
      .array(componentChangeSchema)
      .describe('Newest first; empty when none changed or its app sends no components'),
  })
  .meta({ id: 'AdminActivation' });
export type AdminActivation = z.infer<typeof adminActivationSchema>;

export const adminActivationListSchema = z.array(adminActivationSchema).meta({ id: 'AdminActivationList' });

export const securityEventSchema = z
  .object({
    id: z.string(),
    type: z.string(),
    severity: z.enum(SECURITY_SEVERITIES),
    user_id: z.string().nullable().describe('The account concerned'),
    user_email: z.string().nullable().describe('Null when the account no longer exists'),
    actor_id: z.string().nullable().describe('Who did it, when not the account itself (an administrator)'),
    actor_email: z.string().nullable(),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
    created_at: isoDateTimeSchema,
  })
  .meta({ id: 'SecurityEvent' });
export type SecurityEvent = z.infer<typeof securityEventSchema>;

/** `type` is one known event type or a comma-separated list of them; the server knows the list. */
/** The `type` filter of the security log: one event type or a comma-separated list, without repeats. */
export const securityEventTypeFilterSchema = z
  .string()
  .trim()
  .min(1, 'type must name at least one event type')
  .max(1000)
  .transform((value) => [
    ...new Set(
      value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  ])
  .refine((types) => types.length > 0, 'type must name at least one event type')
  .describe('One event type or a comma-separated list');

export const securityEventListQuerySchema = pageQuerySchema(['created_at', 'type', 'severity'])
  .extend({
    type: securityEventTypeFilterSchema.optional(),
    severity: z.enum(SECURITY_SEVERITIES).optional(),
    userId: userIdSchema.optional().describe('Events about this account or done by it'),
    ...dateRange,
  })
  .refine(orderedRange, rangeProblem);
export const securityEventListSchema = pagedSchema(securityEventSchema).meta({ id: 'SecurityEventList' });

const countsBy = <Key extends string>(keys: readonly [Key, ...Key[]]) =>
  z.object(Object.fromEntries(keys.map((key) => [key, z.number().int()])) as Record<Key, z.ZodNumber>);

export const revenueTotalSchema = z.object({
  currency: z.string(),
  amount_minor: z
    .number()
    .int()
    .describe('Net revenue: paid less refunded (gross_minor − refunded_minor), in the currency’s minor unit'),
  gross_minor: z.number().int().describe('Sum of the payments that charged something (a ₹0 one is none)'),
  refunded_minor: z
    .number()
    .int()
    .describe(
      'Refunded of those payments so far (processed refunds), counted in the period they were paid in',
    ),
  payments: z.number().int().describe('Payments that charged something'),
});

const revenuePeriodSchema = z.object({
  period: z.string().describe('YYYY-MM-DD for days, YYYY-MM for months (UTC)'),
  totals: z.array(revenueTotalSchema).describe('One entry per currency paid in; empty when nothing was'),
});

/**
 * Recurring revenue and its health. MRR is the monthly value of the active and past-due
 * subscriptions at their plans' current prices before tax, times their seats, less coupons that
 * recur on every charge (a yearly one counts a twelfth), per currency, in minor units rounded down.
 */
const subscriptionMetricsSchema = z.object({
  active: z.number().int().describe('Subscriptions paid up now (status active)'),
  mrr: z
    .array(
      z.object({
        currency: z.string(),
        amount_minor: z.number().int().describe('Monthly recurring revenue in minor units, rounded down'),
        subscriptions: z.number().int().describe('Active and past-due subscriptions counted'),
      }),
    )
    .describe('One entry per currency; empty when nothing recurs'),
  churn: z.object({
    window_days: z.number().int(),
    ended: z
      .number()
      .int()
      .describe('Of the subscriptions live at the window’s start, those that ended within it'),
    live_at_start: z.number().int().describe('Subscriptions paid for and not ended at the window’s start'),
    rate: z.number().nullable().describe('ended ÷ live_at_start (0 to 1); null when none was live'),
  }),
  failed_payments: z.object({
    last_30_days: z.number().int().describe('Subscription charges that failed in the last 30 days'),
    past_due: z.number().int().describe('Subscriptions past due now (in their grace period)'),
    suspended: z.number().int().describe('Subscriptions suspended now (the grace period ended unpaid)'),
  }),
  paused: z.object({
    now: z.number().int().describe('Subscriptions paused now: nothing is charged until they resume'),
    planned: z
      .number()
      .int()
      .describe('Active subscriptions with a pause asked for, which starts when their paid period ends'),
  }),
});

const trialMonthSchema = z.object({
  period: z.string().describe('YYYY-MM (UTC): the month the trials started in'),
  started: z.number().int().describe('Free trials started in the month'),
  converted: z.number().int().describe('Of those, the ones bought since (in any month)'),
  rate: z.number().nullable().describe('converted ÷ started (0 to 1); null when none started'),
});

/** Free trials over the last 12 months: how many started, and how many of them were bought. */
const trialMetricsSchema = z
  .object({
    started: z.number().int().describe('Free trials started in the last 12 UTC months'),
    converted: z.number().int().describe('Of those, the ones bought since'),
    rate: z.number().nullable().describe('converted ÷ started (0 to 1); null when none started'),
    by_month: z.array(trialMonthSchema).describe('The last 12 UTC months, oldest first'),
  })
  .describe(
    'Free trials by the month they started in (account, machine and card trials alike), with their conversion',
  );

export const dashboardStatsSchema = z
  .object({
    users: z.object({
      total: z.number().int(),
      active: z.number().int().describe('Enabled accounts whose e-mail address is confirmed'),
      unconfirmed: z.number().int().describe('Enabled accounts whose e-mail address is not confirmed yet'),
      disabled: z.number().int(),
      admins: z.number().int(),
      new_last_30_days: z.number().int(),
    }),
    licenses: z.object({
      total: z.number().int(),
      active: z.number().int(),
      by_status: countsBy(LICENSE_STATUSES).describe('Effective status'),
      perpetual: z
        .object({
          update_window_open: z.number().int().describe('Perpetual licenses still getting updates'),
          update_window_lapsed: z
            .number()
            .int()
            .describe('Perpetual licenses whose update window has ended: renewal candidates'),
        })
        .describe('Perpetual licenses (revoked ones not counted) by their update window'),
    }),
    activations: z.object({
      active: z.number().int().describe('Machines holding a seat'),
      last_24h: z.number().int().describe('Machines activated in the last 24 hours'),
    }),
    revenue: z.object({
      totals: z.array(revenueTotalSchema).describe('All time, per currency'),
      by_day: z.array(revenuePeriodSchema).describe('The last 30 UTC days, oldest first'),
      by_month: z.array(revenuePeriodSchema).describe('The last 12 UTC months, oldest first'),
    }),
    subscriptions: subscriptionMetricsSchema,
    trials: trialMetricsSchema,
    security: z.object({
      by_severity: countsBy(SECURITY_SEVERITIES).describe('Events of the last 30 days'),
      recent: z.array(securityEventSchema).describe('The 10 newest events'),
    }),
    generated_at: isoDateTimeSchema,
  })
  .meta({ id: 'DashboardStats' });
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;
