import { z } from 'zod';
import { isoDateTimeSchema } from './common.js';
import { USAGE_PERIODS } from './features.js';
import { ORGANISATION_ROLES } from './organisations.js';

/** The highest cap a member may be given per period: more is surely a typing slip. */
export const MAX_MEMBER_CAP = 1_000_000_000;

/** One metered feature of an organisation's license as one member uses it this period. */
export const memberFeatureUsageSchema = z
  .object({
    feature_id: z.string(),
    key: z.string(),
    name: z.string(),
    unit: z.string().nullable(),
    period: z.enum(USAGE_PERIODS),
    period_start: isoDateTimeSchema,
    used: z.number().int().describe('Units this member used this period'),
    cap: z.number().int().nullable().describe('The most this member may use per period; null: no cap'),
    remaining: z.number().int().nullable().describe('Units of the cap left this period; null: no cap'),
  })
  .meta({ id: 'MemberFeatureUsage' });
export type MemberFeatureUsage = z.infer<typeof memberFeatureUsageSchema>;

export const memberUsageSchema = z
  .object({
    user_id: z.string(),
    email: z.string().nullable().describe('Null in the caller’s own usage report'),
    full_name: z.string().nullable(),
    role: z.enum(ORGANISATION_ROLES).nullable(),
    features: z.array(memberFeatureUsageSchema),
  })
  .meta({ id: 'MemberUsage' });
export type MemberUsage = z.infer<typeof memberUsageSchema>;

export const memberCapSchema = z.strictObject({
  feature: z.string().trim().min(1, 'feature is required').max(64).describe('Feature id or key'),
  cap: z
    .number()
    .int('cap must be a whole number')
    .min(0, 'cap must be 0 or more')
    .max(MAX_MEMBER_CAP, `cap must be at most ${MAX_MEMBER_CAP}`)
    .nullable()
    .describe('Units per period; null removes the cap'),
});

export const setMemberCapsBodySchema = z
  .strictObject({
    caps: z
      .array(memberCapSchema)
      .min(1, 'Give at least one cap')
      .max(50, 'At most 50 caps at once')
      .refine((caps) => new Set(caps.map((cap) => cap.feature)).size === caps.length, {
        message: 'Each feature once',
      }),
  })
  .meta({ id: 'SetMemberCapsBody' });
export type SetMemberCapsBody = z.infer<typeof setMemberCapsBodySchema>;
