import type { FormErrors } from '@mantine/form';
import { knownText } from '../../../lib/i18n/portal-i18n';

interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

/**
 * A zod result as Mantine form errors: each field's first problem, under the form's own path
 * (`rename` maps request fields to form fields, e.g. `price_minor` → `price`). Problems about the
 * whole body (no path) go under `form`. A message the portal knows is shown in the language shown.
 */
export function formErrors(
  result: { success: true } | { success: false; error: { issues: readonly Issue[] } },
  rename: Record<string, string> = {},
): FormErrors {
  if (result.success) return {};
  const errors: FormErrors = {};
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.');
    const field = rename[path] ?? (path || 'form');
    errors[field] ??= knownText(issue.message);
  }
  return errors;
}
