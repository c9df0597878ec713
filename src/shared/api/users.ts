import { z } from 'zod';
import { USER_ROLES, USER_STATUSES } from '../constants.js';
import { currentPasswordSchema, displayText, isoDateTimeSchema, newPasswordSchema } from './common.js';

export const THEMES = ['light', 'dark', 'system'] as const;

export const notificationPreferencesSchema = z.object({
  product_updates: z.boolean(),
  security_alerts: z.boolean(),
  billing: z.boolean(),
});

/** A BCP 47 language tag as the account keeps it: `en`, `de`, `pt-BR`. */
export const languageTagSchema = z
  .string()
  .max(35, 'Use a language tag such as en or pt-BR')
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'Use a language tag such as en or pt-BR');

export const preferencesSchema = z
  .object({
    theme: z.enum(THEMES),
    language: languageTagSchema,
    notifications: notificationPreferencesSchema,
  })
  .meta({ id: 'Preferences' });
export type Preferences = z.infer<typeof preferencesSchema>;

export const defaultPreferences: Preferences = {
  theme: 'system',
  language: 'en',
  notifications: { product_updates: true, security_alerts: true, billing: true },
};

/** Preferences are updated in part: only the given keys change. */
export const updatePreferencesRequestSchema = z
  .strictObject({
    theme: preferencesSchema.shape.theme.optional(),
    language: preferencesSchema.shape.language.optional(),
    notifications: notificationPreferencesSchema.partial().strict().optional(),
  })
  .meta({ id: 'UpdatePreferencesRequest' });
export type UpdatePreferencesRequest = z.infer<typeof updatePreferencesRequestSchema>;

/** The fields every view of an account starts with, in this order. */
export const accountFields = {
  id: z.string(),
  email: z.string(),
  full_name: z.string().nullable(),
  company: z.string().nullable(),
  role: z.enum(USER_ROLES),
  status: z.enum(USER_STATUSES),
  email_verified: z.boolean(),
};

export const userProfileSchema = z
  .object({
    ...accountFields,
    preferences: preferencesSchema,
    created_at: isoDateTimeSchema,
    updated_at: isoDateTimeSchema,
    /** Present while the account's deletion waits out its grace period: when it is erased. */
    deletion_due_at: isoDateTimeSchema.optional(),
  })
  .meta({ id: 'UserProfile' });
export type UserProfile = z.infer<typeof userProfileSchema>;

/** The name and company of an account as a change sends them: each optional, null clears it. */
export const nameAndCompanyInput = {
  full_name: displayText(100).nullable().optional(),
  company: displayText(100).nullable().optional(),
};

export const updateProfileRequestSchema = z
  .strictObject(nameAndCompanyInput)
  .refine((body) => Object.keys(body).length > 0, 'Send at least one field to change')
  .meta({ id: 'UpdateProfileRequest' });
export type UpdateProfileRequest = z.infer<typeof updateProfileRequestSchema>;

export const changePasswordRequestSchema = z
  .strictObject({
    current_password: currentPasswordSchema,
    new_password: newPasswordSchema,
  })
  .meta({ id: 'ChangePasswordRequest' });
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;
