import { z } from 'zod';
import { displayText, isoDateTimeSchema } from './common.js';
import { pageQuerySchema, pagedSchema } from './paging.js';

/** On/off entitlements, or metered ones whose use is counted per period against a plan's limit. */
export const FEATURE_KINDS = ['boolean', 'metered'] as const;
export type FeatureKind = (typeof FEATURE_KINDS)[number];
export const USAGE_PERIODS = ['day', 'month'] as const;
export type UsagePeriod = (typeof USAGE_PERIODS)[number];

export const featureKeySchema = z
  .string()
  .trim()
  .min(2, 'Key must be at least 2 characters')
  .max(64, 'Key must be at most 64 characters')
  .regex(
    /^[a-z][a-z0-9_]*$/,
    'Key may contain lower-case letters, digits and underscores, starting with a letter',
  );

export const featureSchema = z
  .object({
    feature_id: z.string(),
    key: z.string(),
    name: z.string(),
    description: z.string(),
    kind: z.enum(FEATURE_KINDS),
    /** The period a metered feature's limit applies to; null for on/off features. */
    period: z.enum(USAGE_PERIODS).nullable(),
    unit: z.string().nullable().describe('What one unit of a metered feature is, e.g. "messages"'),
    created_at: isoDateTimeSchema,
    updated_at: isoDateTimeSchema,
  })
  .meta({ id: 'Feature' });
export type Feature = z.infer<typeof featureSchema>;

const featureFields = {
  key: featureKeySchema,
  name: displayText(100).min(1, 'Name is required'),
  description: displayText(500).default(''),
  kind: z.enum(FEATURE_KINDS),
  period: z.enum(USAGE_PERIODS).nullable().optional(),
  unit: displayText(40).nullable().optional(),
};

const meteredNeedsPeriod = (body: { kind?: FeatureKind; period?: UsagePeriod | null }) =>
  body.kind !== 'boolean' || body.period === undefined || body.period === null;

export const createFeatureRequestSchema = z
  .strictObject(featureFields)
  .refine(meteredNeedsPeriod, { message: 'An on/off feature has no usage period', path: ['period'] })
  .meta({ id: 'CreateFeatureRequest' });
export type CreateFeatureRequest = z.input<typeof createFeatureRequestSchema>;

export const updateFeatureRequestSchema = z
  .strictObject({
    key: featureFields.key.optional(),
    name: featureFields.name.optional(),
    description: displayText(500).optional(),
    kind: featureFields.kind.optional(),
    period: featureFields.period,
    unit: featureFields.unit,
  })
  .refine((body) => Object.keys(body).length > 0, 'Send at least one field to change')
  .refine(meteredNeedsPeriod, { message: 'An on/off feature has no usage period', path: ['period'] })
  .meta({ id: 'UpdateFeatureRequest' });
export type UpdateFeatureRequest = z.input<typeof updateFeatureRequestSchema>;

export const featureListQuerySchema = pageQuerySchema(['name', 'key', 'kind', 'created_at']).extend({
  kind: z.enum(FEATURE_KINDS).optional(),
});
export const featureListSchema = pagedSchema(featureSchema).meta({ id: 'FeatureList' });

export const featureStatsSchema = z
  .object({
    total: z.number().int(),
    boolean: z.number().int(),
    metered: z.number().int(),
    by_feature: z.array(
      z.object({
        feature_id: z.string(),
        key: z.string(),
        name: z.string(),
        plans: z.number().int().describe('Plans that include the feature'),
        plan_names: z
          .array(z.string())
          .describe('Their names: while there are any, the feature cannot be deleted'),
        usage_this_month: z.number().int().describe('Units used this calendar month across all licenses'),
      }),
    ),
  })
  .meta({ id: 'FeatureStats' });
