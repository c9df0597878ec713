import type { FormErrors } from '@mantine/form';

/** After a refused submit, puts the keyboard on the first field that needs fixing. */
export function focusFirstError(
  errors: FormErrors,
  getInputNode: (path: string) => HTMLElement | null,
  order: readonly string[],
): void {
  const first = order.find((path) => errors[path]);
  if (first) getInputNode(first)?.focus();
}
