import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { createAdminUserRequestSchema, updateAdminUserRequestSchema } from '../../../../../shared/api/admin';
import { displayText, emailSchema, newPasswordSchema } from '../../../../../shared/api/common';
import { USER_ROLES, USER_STATUSES } from '../../../../../shared/constants';
import { passwordContainsEmail } from '../../../../../shared/password-email-rule';
import type {
  AdminUser,
  CreateAdminUserRequest,
  UpdateAdminUserRequest,
} from '../../../../../shared/api/admin';

// Cross-field checks run even while another field is still wrong, so every problem shows at once.
const always = { when: () => true };

/** "New user": the fields of `createAdminUserRequestSchema` an administrator fills in. */
export const createUserFormSchema = z
  .object({
    email: emailSchema,
    full_name: displayText(100),
    company: displayText(100),
    password: newPasswordSchema,
    role: z.enum(USER_ROLES),
  })
  .refine((values) => !passwordContainsEmail(values.password, values.email), {
    ...always,
    // Worded when the check fails, in the language shown then.
    error: () => t`Choose a password that does not contain the e-mail address`,
    path: ['password'],
  });
export type CreateUserValues = z.input<typeof createUserFormSchema>;
export const CREATE_USER_FIELDS = ['email', 'full_name', 'company', 'password', 'role'] as const;

export const emptyCreateUser: CreateUserValues = {
  email: '',
  full_name: '',
  company: '',
  password: '',
  role: 'user',
};

/** The request body: empty optional fields are left out; the account starts active with its address confirmed. */
export function toCreateUserRequest(values: CreateUserValues): CreateAdminUserRequest {
  const parsed = createUserFormSchema.parse(values);
  const body = createAdminUserRequestSchema.parse({
    email: parsed.email,
    password: parsed.password,
    role: parsed.role,
    ...(parsed.full_name ? { full_name: parsed.full_name } : {}),
    ...(parsed.company ? { company: parsed.company } : {}),
  });
  return body;
}

/** "Edit user": name, company, role and status (the e-mail too, which must stay unique). */
export const editUserFormSchema = z.object({
  email: emailSchema,
  full_name: displayText(100),
  company: displayText(100),
  role: z.enum(USER_ROLES),
  status: z.enum(USER_STATUSES),
});
export type EditUserValues = z.input<typeof editUserFormSchema>;
export const EDIT_USER_FIELDS = ['email', 'full_name', 'company', 'role', 'status'] as const;

export const editValuesOf = (user: AdminUser): EditUserValues => ({
  email: user.email,
  full_name: user.full_name ?? '',
  company: user.company ?? '',
  role: user.role,
  status: user.status,
});

/**
 * Only what changed goes to the server (a role change or disabling ends the user's sessions, so
 * an unchanged role must not be sent as a change). Empty name or company clears it (null).
 */
export function toUpdateUserRequest(user: AdminUser, values: EditUserValues): UpdateAdminUserRequest | null {
  const parsed = editUserFormSchema.parse(values);
  const changes: UpdateAdminUserRequest = {};
  if (parsed.email !== user.email) changes.email = parsed.email;
  if ((parsed.full_name || null) !== (user.full_name ?? null)) changes.full_name = parsed.full_name || null;
  if ((parsed.company || null) !== (user.company ?? null)) changes.company = parsed.company || null;
  if (parsed.role !== user.role) changes.role = parsed.role;
  if (parsed.status !== user.status) changes.status = parsed.status;
  if (Object.keys(changes).length === 0) return null;
  return updateAdminUserRequestSchema.parse(changes);
}
