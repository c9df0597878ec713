import { z } from 'zod';
import { displayText, isoDateTimeSchema } from './common.js';
import { FEATURE_KINDS, USAGE_PERIODS } from './features.js';
import { pageQuerySchema, pagedSchema } from './paging.js';
import { FINGERPRINT_COMPONENTS } from '../fingerprint.js';

export const BILLING_INTERVALS = ['month', 'year', 'lifetime', 'free'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

/** The plan every user may activate once at no cost (`POST /licenses/activate-base`). */
export const BASE_PLAN_CODE = 'base';
export const MAX_SEATS = 1000;
export const MAX_FEATURE_LIMIT = 1_000_000_000;
/** The longest free trial a plan may offer, in days. */
export const MAX_TRIAL_DAYS = 90;
/** The most machines a plan may let a license deactivate in 30 days. */
export const MAX_DEACTIVATIONS_PER_30_DAYS = 1000;
/** The longest update window a perpetual plan gives, or a renewal adds, in months. */
export const MAX_UPDATE_MONTHS = 120;

/** The longest a floating seat stays held without a heartbeat, and the longest borrow, a plan may set. */
export const MAX_FLOATING_LEASE_MINUTES = 24 * 60;
export const MAX_FLOATING_BORROW_DAYS = 90;

/** A floating plan's seats: how many machines run at once, the lease a heartbeat renews, the longest borrow. */
export const floatingPlanSchema = z
  .object({
    seats: z
      .number()
      .int()
      .describe(
        'Machines that may hold a seat at once; on a per-seat plan an organization’s pool is the seats it bought instead',
      ),
    lease_minutes: z
      .number()
      .int()
      .describe('A seat comes back this many minutes after its machine’s last heartbeat'),
    max_borrow_days: z
      .number()
      .int()
      .describe('The most days a machine may borrow a seat for offline use; 0 allows no borrowing'),
  })
  .meta({ id: 'FloatingPlan' });
export type FloatingPlan = z.infer<typeof floatingPlanSchema>;

/**
 * Past a metered feature's allowance: 'stop' there; 'bill' every unit over it; 'cap': bill up to
 * `cap` units over it, then stop.
 */
export const OVERAGE_POLICIES = ['stop', 'bill', 'cap'] as const;
export type OveragePolicy = (typeof OVERAGE_POLICIES)[number];
export const MAX_OVERAGE_PRICE_MINOR = 100_000_000;

export const overageSchema = z
  .object({
    policy: z.enum(OVERAGE_POLICIES),
    price_minor: z
      .number()
      .int()
      .nullable()
      .describe('Price of `per_units` units over the allowance, in the plan’s minor unit; null under stop'),
    per_units: z
      .number()
      .int()
      .describe('How many units `price_minor` buys; a part of a block is billed whole'),
    cap: z.number().int().nullable().describe('Under cap: units over the allowance that may be used'),
  })
  .meta({ id: 'Overage' });
export type Overage = z.infer<typeof overageSchema>;
export const STOP_AT_ALLOWANCE: Overage = { policy: 'stop', price_minor: null, per_units: 1, cap: null };

/** The most units one credit pack may hold, and the most a pack may cost in minor units. */
export const MAX_PACK_UNITS = 100_000_000;
export const MAX_PACK_PRICE_MINOR = 100_000_000;

/** A credit pack a metered feature sells: `units` more to use, for `price_minor` in the plan's currency. */
export const creditPackSchema = z
  .object({
    units: z.number().int().describe('Units one pack adds, drawn once the period’s allowance is used'),
    price_minor: z.number().int().describe('Price of one pack, in the plan’s minor unit'),
  })
  .meta({ id: 'CreditPack' });
export type CreditPack = z.infer<typeof creditPackSchema>;

export const planFeatureSchema = z
  .object({
    feature_id: z.string(),
    key: z.string(),
    name: z.string(),
    kind: z.enum(FEATURE_KINDS),
    period: z.enum(USAGE_PERIODS).nullable(),
    unit: z.string().nullable(),
    /** Units per period for a metered feature; null means unlimited (and always for on/off ones). */
    limit: z.number().int().nullable(),
    overage: overageSchema.describe('What happens past the allowance; always stop for on/off features'),
    pack: creditPackSchema.nullable().describe('The credit pack customers may buy; null when none is sold'),
  })
  .meta({ id: 'PlanFeature' });
export type PlanFeature = z.infer<typeof planFeatureSchema>;

/** A plan's price in one currency. */
export const planPriceSchema = z
  .object({
    currency: z.string().describe('ISO 4217 code'),
    price_minor: z.number().int().describe('In the currency’s minor unit (paise, cents)'),
  })
  .meta({ id: 'PlanPrice' });
export type PlanPrice = z.infer<typeof planPriceSchema>;

/** The most currencies a plan may be sold in besides its own. */
export const MAX_OTHER_PRICES = 20;

export const planSchema = z
  .object({
    id: z.string(),
    code: z.string(),
    name: z.string(),
    description: z.string(),
    /** Price in the currency's minor unit (paise, cents); 0 for free plans. */
    price_minor: z.number().int(),
    currency: z.string(),
    prices: z
      .array(planPriceSchema)
      .describe(
        'Every price the plan is sold for, its own (`price_minor` in `currency`) first, then those in other currencies; a customer pays in one of them, never a conversion',
      ),
    billing_interval: z.enum(BILLING_INTERVALS),
    /** Machine limit: how many machines a license of this plan may be active on at once. */
    max_activations: z.number().int(),
    /** Priced per seat and sold to organisations; `max_activations` is then machines per seat. */
    seat_based: z.boolean(),
    trial_days: z
      .number()
      .int()
      .describe('Days of the free trial a signed-in customer may start without a card; 0 offers none'),
    deactivations_per_30_days: z
      .number()
      .int()
      .describe(
        'How many machines a license may deactivate in a rolling 30 days; the next is refused until one leaves the window',
      ),
    fingerprint_threshold: z
      .number()
      .int()
      .describe(
        'How many of the hashed components a machine sends (machine id, CPU, disk, board, OS install) must match for it to be recognised again',
      ),
    is_public: z.boolean(),
    is_active: z.boolean(),
    is_draft: z
      .boolean()
      .describe('A new plan is a draft until it is published with its features: not listed, not sold'),
    sort_order: z.number().int(),
    update_months: z
      .number()
      .int()
      .nullable()
      .describe(
        'Perpetual plan: months of updates its license gets (it never expires). Update renewal: months a purchase adds. Null otherwise',
      ),
    renews_updates_of: z
      .string()
      .nullable()
      .describe('Update renewal: the perpetual plan whose licenses’ update window a purchase extends'),
    floating: floatingPlanSchema
      .nullable()
      .describe(
        'Floating: machines share this many seats at once (checked out and held by heartbeats); null is node-locked',
      ),
    features: z.array(planFeatureSchema),
    archived_at: isoDateTimeSchema.nullable(),
    created_at: isoDateTimeSchema,
    updated_at: isoDateTimeSchema,
  })
  .meta({ id: 'Plan' });
export type Plan = z.infer<typeof planSchema>;

const planCodeSchema = z
  .string()
  .trim()
  .min(2, 'Code must be at least 2 characters')
  .max(40, 'Code must be at most 40 characters')
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'Code may contain lower-case letters, digits, "-" and "_"');

const overageInput = z
  .strictObject({
    policy: z.enum(OVERAGE_POLICIES),
    price_minor: z
      .number()
      .int('Overage prices are whole minor units')
      .min(1, 'An overage price is at least 1')
      .max(MAX_OVERAGE_PRICE_MINOR, `An overage price must be at most ${MAX_OVERAGE_PRICE_MINOR}`)
      .nullable()
      .default(null),
    per_units: z
      .number()
      .int('Units per price are a whole number')
      .min(1, 'A price is for at least 1 unit')
      .max(MAX_FEATURE_LIMIT, `A price is for at most ${MAX_FEATURE_LIMIT} units`)
      .default(1),
    cap: z
      .number()
      .int('A cap is a whole number of units')
      .min(1, 'A cap is at least 1 unit')
      .max(MAX_FEATURE_LIMIT, `A cap must be at most ${MAX_FEATURE_LIMIT}`)
      .nullable()
      .default(null),
  })
  .superRefine((overage, context) => {
    const problem = overageProblem(overage);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** Why an overage does not hang together, or undefined when it does. */
export function overageProblem(overage: Omit<Overage, 'per_units'>): string | undefined {
  if (overage.policy === 'stop')
    return overage.price_minor !== null || overage.cap !== null
      ? 'A price or cap applies only when use over the allowance is billed'
      : undefined;
  if (overage.price_minor === null) return 'Billing use over the allowance needs a price';
  if (overage.policy === 'cap' && overage.cap === null) return 'A capped overage needs its cap';
  if (overage.policy === 'bill' && overage.cap !== null) return 'A cap applies only under the cap policy';
  return undefined;
}

const planFeaturesInput = z
  .array(
    z.strictObject({
      feature_id: z.string().min(1).max(64),
      limit: z
        .number()
        .int('Limits are whole numbers')
        .min(0, 'A limit cannot be negative')
        .max(MAX_FEATURE_LIMIT, `A limit must be at most ${MAX_FEATURE_LIMIT}`)
        .nullable()
        .default(null),
      overage: overageInput.optional().describe('Past the allowance; stop when left out'),
      pack: z
        .strictObject({
          units: z
            .number()
            .int('A pack holds a whole number of units')
            .min(1, 'A pack holds at least 1 unit')
            .max(MAX_PACK_UNITS, `A pack holds at most ${MAX_PACK_UNITS} units`),
          price_minor: z
            .number()
            .int('A pack’s price is whole minor units')
            .min(1, 'A pack’s price is at least 1')
            .max(MAX_PACK_PRICE_MINOR, `A pack’s price must be at most ${MAX_PACK_PRICE_MINOR}`),
        })
        .nullable()
        .default(null)
        .describe('The credit pack sold for a metered feature with a period; none when left out'),
    }),
  )
  .max(100)
  .refine((items) => new Set(items.map((item) => item.feature_id)).size === items.length, {
    message: 'A feature can be included only once',
  });

const updateMonthsSchema = z
  .number()
  .int('Months of updates are a whole number')
  .min(1, 'A perpetual plan gives at least 1 month of updates')
  .max(MAX_UPDATE_MONTHS, `A perpetual plan gives at most ${MAX_UPDATE_MONTHS} months of updates`)
  .nullable();
const floatingInput = z
  .strictObject({
    seats: z
      .number()
      .int('Floating seats are a whole number')
      .min(1, 'A floating plan has at least 1 seat')
      .max(MAX_SEATS, `A floating plan has at most ${MAX_SEATS} seats`),
    lease_minutes: z
      .number()
      .int('Lease minutes are whole minutes')
      .min(1, 'A floating lease lasts at least 1 minute')
      .max(MAX_FLOATING_LEASE_MINUTES, `A floating lease lasts at most ${MAX_FLOATING_LEASE_MINUTES} minutes`)
      .default(15),
    max_borrow_days: z
      .number()
      .int('Borrow days are whole days')
      .min(0, 'Borrow days cannot be negative')
      .max(MAX_FLOATING_BORROW_DAYS, `A seat is borrowed for at most ${MAX_FLOATING_BORROW_DAYS} days`)
      .default(7),
  })
  .nullable()
  .describe('Makes the plan floating (null: node-locked)');
const renewsUpdatesOfSchema = z.string().trim().min(1).max(64).nullable();

/** What a plan's update fields may be together; `undefined` is a field left as it is. */
interface UpdateWindowFields {
  billing_interval?: BillingInterval | undefined;
  update_months?: number | null | undefined;
  renews_updates_of?: string | null | undefined;
}

/**
 * Why a plan's update fields do not fit together, or undefined when they do: a perpetual plan and
 * an update renewal are both bought once (billing interval "lifetime"), and a renewal says how many
 * months it adds. The plan a renewal names is checked by the server.
 */
export function updateWindowProblem(plan: UpdateWindowFields): string | undefined {
  if (plan.renews_updates_of && !plan.update_months)
    return 'An update renewal says how many months of updates it adds';
  if (plan.update_months && plan.billing_interval !== undefined && plan.billing_interval !== 'lifetime')
    return 'A perpetual plan or an update renewal is bought once: its billing interval is lifetime';
  return undefined;
}
function checkUpdateWindow(plan: UpdateWindowFields, context: z.RefinementCtx): void {
  const problem = updateWindowProblem(plan);
  if (problem) context.addIssue({ code: 'custom', path: ['update_months'], message: problem });
}

const currencyField = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, 'Currency must be a three-letter ISO 4217 code');

const otherPricesInput = z
  .array(
    z.strictObject({
      currency: currencyField,
      price_minor: z
        .number()
        .int('Prices are whole numbers of the minor unit')
        .min(1, 'A price in another currency is above 0')
        .max(100_000_000_00, 'Price is too large'),
    }),
  )
  .max(MAX_OTHER_PRICES, `A plan is sold in at most ${MAX_OTHER_PRICES} other currencies`)
  .refine((items) => new Set(items.map((item) => item.currency)).size === items.length, {
    message: 'A currency can be priced only once',
  })
  .describe('Prices in currencies other than the plan’s own; replaces them all when sent');

const planFields = {
  code: planCodeSchema,
  name: displayText(100).min(1, 'Name is required'),
  description: displayText(1000).default(''),
  price_minor: z
    .number()
    .int('Prices are whole numbers of the minor unit')
    .min(0, 'A price cannot be negative')
    .max(100_000_000_00, 'Price is too large'),
  currency: currencyField,
  other_prices: otherPricesInput.default([]),
  billing_interval: z.enum(BILLING_INTERVALS),
  max_activations: z
    .number()
    .int('Machine limits are whole numbers')
    .min(1, 'A plan allows at least one machine')
    .max(MAX_SEATS, `A plan allows at most ${MAX_SEATS} machines at once`),
  trial_days: z
    .number()
    .int('Trial days are whole days')
    .min(0, 'Trial days cannot be negative')
    .max(MAX_TRIAL_DAYS, `A trial lasts at most ${MAX_TRIAL_DAYS} days`)
    .default(0),
  deactivations_per_30_days: z
    .number()
    .int('Deactivations are whole numbers')
    .min(0, 'Deactivations cannot be negative')
    .max(
      MAX_DEACTIVATIONS_PER_30_DAYS,
      `A plan allows at most ${MAX_DEACTIVATIONS_PER_30_DAYS} deactivations in 30 days`,
    )
    .default(3),
  fingerprint_threshold: z
    .number()
    .int('The fingerprint threshold is a whole number of components')
    .min(1, 'At least one fingerprint component must match')
    .max(
      FINGERPRINT_COMPONENTS.length,
      `A machine sends ${FINGERPRINT_COMPONENTS.length} fingerprint components`,
    )
    .default(3),
  is_public: z.boolean().default(true),
  is_active: z.boolean().default(true),
  sort_order: z.number().int().min(0).max(1_000_000).default(0),
  features: planFeaturesInput.default([]),
  update_months: updateMonthsSchema.default(null),
  renews_updates_of: renewsUpdatesOfSchema.default(null),
  floating: floatingInput.default(null),
};

/** Free plans cost nothing and paid plans cost something: the two must agree. */
const priceMatchesInterval = (plan: { price_minor?: number; billing_interval?: BillingInterval }) =>
  plan.price_minor === undefined ||
  plan.billing_interval === undefined ||
  (plan.billing_interval === 'free') === (plan.price_minor === 0);
/** A trial is of something paid for: a free plan offers none. */
const trialOfPaidPlan = (plan: { trial_days?: number; billing_interval?: BillingInterval }) =>
  !plan.trial_days || plan.billing_interval === undefined || plan.billing_interval !== 'free';
const trialMessage = { message: 'A free plan has no trial: set trial days to 0', path: ['trial_days'] };

const priceMessage = {
  message: 'A free plan has price 0 and a paid plan a price above 0',
  path: ['price_minor'],
};

export const createPlanRequestSchema = z
  .strictObject(planFields)
  .refine(priceMatchesInterval, priceMessage)
  .refine(trialOfPaidPlan, trialMessage)
  .superRefine(checkUpdateWindow)
  .meta({ id: 'CreatePlanRequest' });
export type CreatePlanRequest = z.input<typeof createPlanRequestSchema>;

export const updatePlanRequestSchema = z
  .strictObject({
    code: planFields.code.optional(),
    name: planFields.name.optional(),
    description: displayText(1000).optional(),
    price_minor: planFields.price_minor.optional(),
    currency: planFields.currency.optional(),
    other_prices: otherPricesInput.optional(),
    billing_interval: planFields.billing_interval.optional(),
    max_activations: planFields.max_activations.optional(),
    trial_days: planFields.trial_days.unwrap().optional(),
    deactivations_per_30_days: planFields.deactivations_per_30_days.unwrap().optional(),
    fingerprint_threshold: planFields.fingerprint_threshold.unwrap().optional(),
    is_public: z.boolean().optional(),
    is_active: z.boolean().optional(),
    sort_order: z.number().int().min(0).max(1_000_000).optional(),
    features: planFeaturesInput.optional().describe('Replaces the plan’s features and limits when sent'),
    update_months: updateMonthsSchema.optional(),
    renews_updates_of: renewsUpdatesOfSchema.optional(),
    floating: floatingInput.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Send at least one field to change')
  .meta({ id: 'UpdatePlanRequest' });
export type UpdatePlanRequest = z.input<typeof updatePlanRequestSchema>;

export const planListQuerySchema = pageQuerySchema([
  'sort_order',
  'name',
  'code',
  'price_minor',
  'created_at',
]).extend({
  status: z.enum(['active', 'inactive', 'draft', 'archived', 'all']).default('all'),
});
export const planListSchema = pagedSchema(planSchema).meta({ id: 'PlanList' });
export const publicPlanListSchema = z.array(planSchema).meta({ id: 'PublicPlanList' });

export const deletePlanResponseSchema = z
  .object({
    id: z.string(),
    outcome: z
      .enum(['deleted', 'archived'])
      .describe('A plan that licenses refer to is archived (hidden, no new sales), never deleted'),
    message: z.string(),
  })
  .meta({ id: 'DeletePlanResponse' });

export const planStatsSchema = z
  .object({
    total: z.number().int(),
    active: z.number().int().describe('Published plans on sale'),
    draft: z.number().int().describe('Plans not published yet'),
    public: z.number().int(),
    archived: z.number().int(),
    by_plan: z.array(
      z.object({
        plan_id: z.string(),
        code: z.string(),
        name: z.string(),
        active_licenses: z.number().int(),
        total_licenses: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'PlanStats' });
