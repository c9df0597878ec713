import { t } from '@lingui/core/macro';
import { z } from 'zod';
import {
  type AdminLicense,
  createAdminLicenseRequestSchema,
  type CreateAdminLicenseRequest,
  REVOKE_REASON_MAX_LENGTH,
  revokeLicenseQuerySchema,
  updateAdminLicenseRequestSchema,
  type UpdateAdminLicenseRequest,
} from '../../../../../shared/api/admin';
import { MAX_SEATS } from '../../../../../shared/api/plans';
import { local } from '../../../../../shared/dates';

// Cross-field checks run even while another field is still wrong, so every problem shows at once.
const always = { when: () => true };

/** A `YYYY-MM-DD` of the admin's calendar as the last moment of that day, in UTC ISO form. */
export const endOfDayIso = (day: string) => local(day).endOf('day').toISOString();

/** An ISO instant as the `YYYY-MM-DD` of the admin's calendar (what a date field holds). */
export const dayOf = (iso: string): string => local(iso).format('YYYY-MM-DD');

/** A `YYYY-MM-DD` that names a real day: 30 February does not round-trip, so it is refused. */
const isCalendarDay = (day: string) => /^\d{4}-\d{2}-\d{2}$/.test(day) && dayOf(day) === day;

const isFutureDay = (day: string, now = Date.now()) =>
  isCalendarDay(day) && local(day).endOf('day').valueOf() > now;

// The messages are worded when a check fails, in the language shown then.
const seatsField = z
  .number({ error: () => t`Enter a whole number of seats` })
  .int({ error: () => t`Seats are whole numbers` })
  .min(1, { error: () => t`At least 1 seat` })
  .max(MAX_SEATS, { error: () => t`At most ${MAX_SEATS} seats` });

/** "Plan's billing period" (the server's default), "Never expires" or a chosen day. */
export const EXPIRY_CHOICES = ['plan', 'never', 'date'] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];

export const createLicenseFormSchema = z
  .object({
    user_id: z.string({ error: () => t`Choose the user` }).min(1, { error: () => t`Choose the user` }),
    plan_id: z.string().min(1, { error: () => t`Choose a plan` }),
    expiry: z.enum(EXPIRY_CHOICES),
    expires_on: z.string(),
    // Empty: the plan's seat limit.
    seats: z.union([z.literal(''), seatsField]),
  })
  .refine((values) => values.expiry !== 'date' || isFutureDay(values.expires_on), {
    ...always,
    error: () => t`Choose a day after today`,
    path: ['expires_on'],
  });
export type CreateLicenseValues = {
  user_id: string | null;
  plan_id: string;
  expiry: ExpiryChoice;
  expires_on: string;
  seats: number | '';
};
export const CREATE_LICENSE_FIELDS = ['user_id', 'plan_id', 'expiry', 'expires_on', 'seats'] as const;

export function toCreateLicenseRequest(values: CreateLicenseValues): CreateAdminLicenseRequest {
  const parsed = createLicenseFormSchema.parse(values);
  return createAdminLicenseRequestSchema.parse({
    user_id: parsed.user_id,
    plan_id: parsed.plan_id,
    ...(parsed.expiry === 'never' ? { expires_at: null } : {}),
    ...(parsed.expiry === 'date' ? { expires_at: endOfDayIso(parsed.expires_on) } : {}),
    ...(parsed.seats === '' ? {} : { max_activations: parsed.seats }),
  });
}

/** What an administrator may change on a license that is not revoked (`updateAdminLicenseRequestSchema`). */
export type EditLicenseValues = {
  status: 'active' | 'suspended';
  plan_id: string;
  seats: number | '';
  expiry: Exclude<ExpiryChoice, 'plan'>;
  expires_on: string;
};
export const EDIT_LICENSE_FIELDS = ['status', 'plan_id', 'seats', 'expiry', 'expires_on'] as const;

export function editLicenseFormSchema(license: Pick<AdminLicense, 'activations_used' | 'expires_at'>) {
  const inUse = license.activations_used;
  return z
    .object({
      status: z.enum(['active', 'suspended']),
      plan_id: z.string().min(1, { error: () => t`Choose a plan` }),
      seats: seatsField.min(Math.max(1, inUse), {
        error: () =>
          inUse > 1
            ? t`At least ${inUse}: that many machines use it now (deactivate some first)`
            : t`At least 1 seat`,
      }),
      expiry: z.enum(['never', 'date']),
      expires_on: z.string(),
    })
    .refine(
      // An unchanged past expiry may stay; a new one must be in the future.
      (values) =>
        values.expiry !== 'date' ||
        (license.expires_at !== null && values.expires_on === dayOf(license.expires_at)) ||
        isFutureDay(values.expires_on),
      { ...always, error: () => t`Choose a day after today`, path: ['expires_on'] },
    );
}

export const editValuesOf = (license: AdminLicense): EditLicenseValues => ({
  status: license.status === 'suspended' ? 'suspended' : 'active',
  plan_id: license.plan_id,
  seats: license.max_activations,
  expiry: license.expires_at ? 'date' : 'never',
  expires_on: license.expires_at ? dayOf(license.expires_at) : '',
});

/** Only the changed fields; null when nothing changed. */
export function toUpdateLicenseRequest(
  license: AdminLicense,
  values: EditLicenseValues,
): UpdateAdminLicenseRequest | null {
  const parsed = editLicenseFormSchema(license).parse(values);
  const before = editValuesOf(license);
  const changes: UpdateAdminLicenseRequest = {};
  if (parsed.status !== before.status) changes.status = parsed.status;
  if (parsed.plan_id !== before.plan_id) changes.plan_id = parsed.plan_id;
  if (parsed.seats !== before.seats) changes.max_activations = parsed.seats;
  if (
    parsed.expiry !== before.expiry ||
    (parsed.expiry === 'date' && parsed.expires_on !== before.expires_on)
  )
    changes.expires_at = parsed.expiry === 'never' ? null : endOfDayIso(parsed.expires_on);
  if (Object.keys(changes).length === 0) return null;
  return updateAdminLicenseRequestSchema.parse(changes);
}

/** Line breaks typed in the box become spaces: the reason travels as one line of query text. */
const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim();

/**
 * The revoke reason: the server's rules (`revokeLicenseQuerySchema`: required, at most
 * {@link REVOKE_REASON_MAX_LENGTH} characters, no control characters) in the form's words.
 */
export const revokeFormSchema = z.object({
  reason: z
    .string()
    .transform(oneLine)
    .pipe(
      z
        .string()
        .min(1, { error: () => t`Enter the reason: the owner sees it on their license` })
        .max(REVOKE_REASON_MAX_LENGTH, { error: () => t`Use at most ${REVOKE_REASON_MAX_LENGTH} characters` })
        .regex(/^[^\p{Cc}\p{Cs}]*$/u, { error: () => t`Use plain text (no control characters)` }),
    )
    .pipe(revokeLicenseQuerySchema.shape.reason),
});
export { REVOKE_REASON_MAX_LENGTH };

/** An administrator's reason for forgiving a license's deactivations, kept in the security log. */
export const resetDeactivationsFormSchema = z.object({
  reason: z
    .string()
    .transform(oneLine)
    .pipe(
      z
        .string()
        .min(1, { error: () => t`Enter the reason: it is kept in the security log` })
        .max(REVOKE_REASON_MAX_LENGTH, {
          error: () => t`Use at most ${REVOKE_REASON_MAX_LENGTH} characters`,
        }),
    ),
});
