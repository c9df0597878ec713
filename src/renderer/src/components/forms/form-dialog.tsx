import { useLingui } from '@lingui/react/macro';
import { Button, Group, type MantineColor, Modal, type ModalProps, Stack } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { FormAlert } from './form-alert';

export interface FormDialogProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  size?: ModalProps['size'];
  /** The form's submit handler (`form.onSubmit(...)`). */
  onSubmit: (event?: FormEvent<HTMLFormElement>) => void;
  /** What the dialog acts on, above everything else ("LIC-… · ana@example.com"). */
  intro?: ReactNode;
  /** The server's refusal of the last submit, under `failureTitle`. */
  failure?: string | null;
  failureTitle: string;
  submitLabel: string;
  /** The button that closes without submitting ("Keep subscription" where the submit cancels one). */
  cancelLabel?: string;
  submitting: boolean;
  submitDisabled?: boolean;
  /** A destructive submit is red. */
  submitColor?: MantineColor;
  /** While a submit runs the dialog stays open (Cancel and the close button do nothing). */
  holdWhileSubmitting?: boolean;
  /** False while what the dialog edits is not known yet: the dialog shows nothing. */
  ready?: boolean;
  /** The fields. */
  children: ReactNode;
}

/**
 * A create or edit dialog: the form's fields, the server's refusal above them, and Cancel beside
 * the submit button. Fields are checked before anything is sent (the form's own rules).
 */
export function FormDialog({
  opened,
  onClose,
  title,
  size,
  onSubmit,
  intro,
  failure,
  failureTitle,
  submitLabel,
  cancelLabel,
  submitting,
  submitDisabled,
  submitColor,
  holdWhileSubmitting = false,
  ready = true,
  children,
}: FormDialogProps) {
  const { t } = useLingui();
  const held = holdWhileSubmitting && submitting;
  return (
    <Modal
      opened={opened}
      onClose={() => !held && onClose()}
      title={title}
      size={size}
      closeButtonProps={{ 'aria-label': t`Close` }}
    >
      {ready && (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            {intro}
            {failure && <FormAlert title={failureTitle}>{failure}</FormAlert>}
            {children}
            <Group justify="flex-end" gap="sm" mt="xs">
              <Button variant="default" onClick={onClose} disabled={held}>
                {cancelLabel ?? t`Cancel`}
              </Button>
              <Button type="submit" color={submitColor} loading={submitting} disabled={submitDisabled}>
                {submitLabel}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
