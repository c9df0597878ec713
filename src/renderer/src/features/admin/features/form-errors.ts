import type { FormErrors } from '@mantine/form';

interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

/**
 * A zod result as Mantine form errors: each field's first problem, under the form's own path
 * (`rename` maps request fields to form fields, e.g. `price_minor` → `price`). Problems about the
 * whole body (no path) go under `form`.
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
    errors[field] ??= issue.message;
  }
  return errors;
}
