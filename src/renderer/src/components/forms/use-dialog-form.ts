import { type FormValidateInput, useForm } from '@mantine/form';
import { useCallback, useState } from 'react';
import { focusFirstError } from './focus-first-error';
import { toSubmitFailure } from './submit-failure';

export interface DialogFormOptions<Values> {
  initialValues: Values;
  /** The form's own rules: checked on submit before anything is sent, and per field when it loses focus. */
  validate: FormValidateInput<Values>;
  /** The fields in the order they show: a refused submit puts the keyboard on the first to fix. */
  fields: readonly string[];
  /** The alert's message when a refused save brings none. */
  failedMessage: string;
  /** Sends the checked values; a rejection shows in the dialog's alert. */
  save: (values: Values) => Promise<unknown>;
}

/**
 * The form of a create or edit dialog (`FormDialog`): its values and rules, the server's refusal
 * of the last save, and `dialog`, the submit props to spread on the dialog.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Mantine's own bound: interfaces of values fit it
export function useDialogForm<Values extends Record<string, any>>({
  initialValues,
  validate,
  fields,
  failedMessage,
  save,
}: DialogFormOptions<Values>) {
  const [failure, setFailure] = useState<string>();
  const form = useForm<Values>({ initialValues, validate, validateInputOnBlur: true });

  const { setValues, resetDirty } = form;
  /** Starts again from `values` (a dialog opened anew, another row): unchanged, with no errors or failure. */
  const restart = useCallback(
    (values: Values) => {
      // Setting the values clears the fields' errors too.
      setValues(values);
      resetDirty(values);
      setFailure(undefined);
    },
    [setValues, resetDirty],
  );

  const onSubmit = form.onSubmit(
    async (values) => {
      setFailure(undefined);
      try {
        await save(values);
      } catch (error) {
        setFailure(toSubmitFailure(error, failedMessage).message);
      }
    },
    (errors) => focusFirstError(errors, form.getInputNode, fields),
  );

  return { form, restart, dialog: { onSubmit, failure, submitting: form.submitting } };
}
