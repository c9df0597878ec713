import { isApiFailure } from '../../lib/api-errors';
import { knownText } from '../../lib/i18n/portal-i18n';

/** What a form shows after a rejected submit: one message for the alert, and errors per field. */
export interface SubmitFailure {
  message: string;
  fieldErrors: Record<string, string>;
  /** The server's machine-readable error code, when the call got that far. */
  code?: string;
}

/** Server error codes that are about one field even though the server sends no `errors[]`. */
const CODE_FIELDS: Record<string, string> = {
  password_too_common: 'password',
};

/**
 * Reads a failed call the way the portal shows it: endpoints reject with an `ApiFailure` (the
 * message and the server's per-field problems), the session thunks with a display string.
 * The message is in the language shown when the portal knows it (`knownText`).
 * `fieldMap` renames server field names to form paths (e.g. `new_password` → `password`); fields
 * the form does not have stay in the alert only.
 */
export function toSubmitFailure(
  error: unknown,
  fallback: string,
  fieldMap: Record<string, string> = {},
  formFields: readonly string[] = Object.values(fieldMap),
): SubmitFailure {
  if (typeof error === 'string') return { message: knownText(error || fallback), fieldErrors: {} };
  if (!isApiFailure(error)) {
    return {
      message: knownText(error instanceof Error && error.message ? error.message : fallback),
      fieldErrors: {},
    };
  }
  const fieldErrors: Record<string, string> = {};
  const place = (serverField: string, message: string) => {
    const path = fieldMap[serverField] ?? serverField;
    // The server checks with the portal's schemas: their English is known (form-messages.ts).
    if (formFields.includes(path)) fieldErrors[path] ??= knownText(message);
  };
  for (const [field, message] of Object.entries(error.fieldErrors)) place(field, message);
  const codeField = error.code ? CODE_FIELDS[error.code] : undefined;
  if (codeField) place(codeField, error.message);
  return { message: knownText(error.message || fallback), fieldErrors, code: error.code };
}
