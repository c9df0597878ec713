import { z } from 'zod';
import { isoDateTimeSchema } from './common.js';
import { USAGE_PERIODS } from './features.js';
import { pagedSchema, pageQuerySchema } from './paging.js';
import { OVERAGE_POLICIES } from './plans.js';

/** Which month the admin's usage view reads: the current one or the one before. */
export const ADMIN_USAGE_PERIODS = ['current', 'previous'] as const;

export const adminUsageQuerySchema = pageQuerySchema(['used', 'over_allowance']).extend({
  period: z.enum(ADMIN_USAGE_PERIODS).default('current').describe('This month (UTC) or the last'),
  feature: z.string().trim().min(1).max(64).optional().describe('Only this feature (id or key)'),
});
export type AdminUsageQuery = z.input<typeof adminUsageQuerySchema>;

export const adminUsageRowSchema = z
  .object({
    license_id: z.string(),
    user_id: z.string().nullable(),
    email: z.string().nullable().describe('The license holder’s'),
    organisation_id: z.string().nullable(),
    organisation_name: z.string().nullable(),
    plan_name: z.string(),
    feature_id: z.string(),
    feature_key: z.string(),
    feature_name: z.string(),
    unit: z.string().nullable(),
    period: z.enum(USAGE_PERIODS),
    used: z.number().int().describe('Units used in the month (a daily feature: its days summed)'),
    allowance: z.number().int().nullable().describe('Per period; null: unlimited'),
    over_allowance: z.number().int().describe('Units past the allowance (a daily feature: per day, summed)'),
    overage_policy: z.enum(OVERAGE_POLICIES),
    overage_accrued_minor: z
      .number()
      .int()
      .describe('What the units past the allowance cost at the plan’s price, in the currency’s minor unit'),
    currency: z.string(),
  })
  .meta({ id: 'AdminUsageRow' });
export type AdminUsageRow = z.infer<typeof adminUsageRowSchema>;

export const adminUsageListSchema = pagedSchema(adminUsageRowSchema)
  .extend({
    period_start: isoDateTimeSchema,
    period_end: isoDateTimeSchema,
    overage_billed: z
      .array(z.object({ currency: z.string(), amount_minor: z.number().int() }))
      .describe(
        'Overage revenue: what the renewals settled in the period charged for use past the allowance, per currency',
      ),
  })
  .meta({ id: 'AdminUsageList' });
export type AdminUsageList = z.infer<typeof adminUsageListSchema>;
