import { z } from 'zod';
import { isoDateTimeSchema } from './common.js';

export const COUPON_DURATIONS = ['once', 'forever'] as const;

/** A code as typed: any case, stored and compared in capitals. */
export const couponCodeSchema = z
  .string()
  .trim()
  .min(3, 'A coupon code has at least 3 characters')
  .max(40, 'A coupon code has at most 40 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'A coupon code has only letters, digits, - and _')
  .toUpperCase();

export const couponSchema = z
  .object({
    id: z.string(),
    code: z.string(),
    description: z.string().nullable(),
    percent_off: z.number().int().nullable(),
    amount_off_minor: z.number().int().nullable(),
    currency: z.string().nullable(),
    duration: z.enum(COUPON_DURATIONS).describe('once: the first charge only; forever: every charge'),
    expires_at: isoDateTimeSchema.nullable(),
    max_redemptions: z.number().int().nullable(),
    redeemed_count: z.number().int(),
    archived: z.boolean(),
    created_at: isoDateTimeSchema,
  })
  .meta({ id: 'Coupon' });
export type Coupon = z.infer<typeof couponSchema>;

export const couponListSchema = z.object({ data: z.array(couponSchema) }).meta({ id: 'CouponList' });

const futureMoment = z.iso
  .datetime({ offset: true, message: 'expires_at must be an ISO 8601 date and time' })
  .describe('When it stops being accepted');

export const createCouponRequestSchema = z
  .strictObject({
    code: couponCodeSchema,
    description: z.string().trim().max(200, 'Keep the description under 200 characters').optional(),
    percent_off: z
      .number()
      .int('A percentage off is a whole number')
      .min(1, 'At least 1% off')
      .max(100, 'At most 100% off')
      .optional(),
    amount_off_minor: z
      .number()
      .int('An amount off is a whole number of the minor unit')
      .min(1, 'An amount off is more than 0')
      .max(100_000_000_00, 'That amount off is too large')
      .optional(),
    currency: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{3}$/, 'Currency must be a three-letter ISO 4217 code')
      .optional(),
    duration: z.enum(COUPON_DURATIONS).default('once'),
    expires_at: futureMoment.optional(),
    max_redemptions: z.number().int().min(1, 'Allow at least one redemption').max(1_000_000).optional(),
  })
  .refine((coupon) => (coupon.percent_off === undefined) !== (coupon.amount_off_minor === undefined), {
    message: 'Give either percent_off or amount_off_minor, not both',
    path: ['percent_off'],
  })
  .refine((coupon) => coupon.amount_off_minor === undefined || coupon.currency !== undefined, {
    message: 'An amount off needs its currency',
    path: ['currency'],
  })
  .meta({ id: 'CreateCouponRequest' });

export const updateCouponRequestSchema = z
  .strictObject({
    description: z.string().trim().max(200, 'Keep the description under 200 characters').nullable(),
    archived: z.boolean().describe('An archived coupon is no longer accepted'),
    expires_at: futureMoment.nullable(),
    max_redemptions: z.number().int().min(1).max(1_000_000).nullable(),
  })
  .partial()
  .meta({ id: 'UpdateCouponRequest' });

export const couponPreviewRequestSchema = z
  .strictObject({
    code: couponCodeSchema,
    plan_id: z.string().trim().min(1, 'plan_id is required').max(64, 'plan_id is too long'),
    currency: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{3}$/, 'currency must be a three-letter ISO 4217 code')
      .optional()
      .describe(
        'Which of the plan’s prices it is previewed on (one of its `prices` currencies); left out, its own',
      ),
  })
  .meta({ id: 'CouponPreviewRequest' });

/** What a coupon does to a plan's price, before buying. */
export const couponPreviewSchema = z
  .object({
    code: z.string(),
    description: z.string().nullable(),
    duration: z.enum(COUPON_DURATIONS),
    amount_minor: z.number().int().describe('The plan’s price'),
    discount_minor: z.number().int(),
    amount_after_minor: z.number().int().describe('What the first charge comes to'),
    currency: z.string(),
  })
  .meta({ id: 'CouponPreview' });
export type CouponPreview = z.infer<typeof couponPreviewSchema>;

/** The optional coupon a checkout is opened with. */
export const couponCodeField = couponCodeSchema.optional().describe('A coupon code, in any case');
