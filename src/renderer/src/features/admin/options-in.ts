import type { I18n, MessageDescriptor } from '@lingui/core';

/**
 * A choice of a filter or a form written once at module level: its label is a message (`msg`),
 * or a name that is not translated here (a plan's, or a label another module translates).
 */
export interface LabelledOption<Value extends string = string> {
  value: Value;
  label: MessageDescriptor | string;
}

/** The options as a select shows them: each message in the language shown now. */
export const optionsIn = <Value extends string>(i18n: I18n, options: readonly LabelledOption<Value>[]) =>
  options.map(({ value, label }) => ({ value, label: typeof label === 'string' ? label : i18n._(label) }));
