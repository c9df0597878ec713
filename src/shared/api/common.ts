import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../constants.js';

/** E-mail addresses are compared case-insensitively, so they are trimmed and lower-cased on the way in. */
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, 'Enter your e-mail address')
  .max(254, 'E-mail address is too long')
  .pipe(z.email('Enter a valid e-mail address'));

/** Length is the only composition rule (NIST SP 800-63B); the server also refuses common passwords. */
export const newPasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

/** A password being checked, not set: any length up to a bound that keeps hashing cheap to refuse. */
export const currentPasswordSchema = z
  .string()
  .min(1, 'Password is required')
  .max(1024, 'Password is too long');

export const opaqueTokenSchema = z.string().min(16, 'Token is malformed').max(512, 'Token is malformed');

export const isoDateTimeSchema = z.string().describe('ISO 8601 date and time, UTC');

const NO_CONTROL_CHARACTERS = /^[^\p{Cc}\p{Cs}]*$/u;

/** Free text shown to people (names, company): trimmed, bounded, no control characters. */
export const displayText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .regex(NO_CONTROL_CHARACTERS, 'Must not contain control characters');

/**
 * The e-mail typed at sign-in: not validated as an address (an unknown one is just a failed
 * sign-in), but bounded and free of control characters, which no account can contain.
 */
export const signInNameSchema = z
  .string()
  .trim()
  .min(1, 'Enter your e-mail address')
  .max(254, 'E-mail address is too long')
  .regex(NO_CONTROL_CHARACTERS, 'Must not contain control characters');

/** Calls whose input is all in the path, query or bearer token: no body, or an empty JSON object. */
export const noBodySchema = z
  .strictObject({})
  .describe('No body is needed; an empty object is accepted')
  .nullish();

/** A record's id as a path names it (`/admin/users/:id`). */
export const recordIdSchema = z.string().min(1).max(64);
/** The path parameters of one record's routes. */
export const idParamsSchema = z.object({ id: recordIdSchema });
