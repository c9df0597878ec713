import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { type ReactNode, useEffect, useState } from 'react';
import { FormAlert } from './form-alert';
import { toSubmitFailure } from './submit-failure';

export interface ConfirmDialogProps {
  opened: boolean;
  /** Names the thing: "Delete feature AI chat?". */
  title: string;
  /** What will happen, and what goes with it. */
  children: ReactNode;
  confirmLabel: string;
  /** Rejects with the server's refusal, which shows here; the dialog stays open then. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
  /** The refusal's heading ("Could not delete the user"). */
  failureTitle?: string;
  /** The words when a refusal says nothing itself. */
  fallback?: string;
  centered?: boolean;
}

/**
 * A destructive action's last word: what will happen, Cancel first (it has the focus), and the
 * server's refusal if it says no. It cannot be closed while the action runs.
 */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
  failureTitle,
  fallback,
  centered,
}: ConfirmDialogProps) {
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (opened) setProblem(null);
  }, [opened]);

  const confirm = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await onConfirm();
    } catch (error) {
      setProblem(toSubmitFailure(error, fallback ?? t`The request failed`).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={() => !busy && onClose()}
      title={title}
      centered={centered}
      closeButtonProps={{ 'aria-label': t`Close` }}
    >
      <Stack gap="md">
        {problem ? <FormAlert title={failureTitle ?? t`Not done`}>{problem}</FormAlert> : null}
        {children}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy} data-autofocus>
            <Trans>Cancel</Trans>
          </Button>
          {/* Filled red.9 keeps white text above 4.5:1 in both schemes. */}
          <Button color="red.9" onClick={() => void confirm()} loading={busy}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
