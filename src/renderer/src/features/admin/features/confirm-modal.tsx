import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { type ReactNode, useEffect, useState } from 'react';
import { AlertIcon } from '../../../components/brand/icons';

export interface ConfirmModalProps {
  opened: boolean;
  /** Names the thing: "Delete feature AI chat?". */
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Rejects with the message to show (the server's refusal); the modal stays open then. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

const messageOf = (error: unknown) =>
  typeof error === 'string' ? error : error instanceof Error ? error.message : String(error);

/** A destructive action's last word: what will happen, Cancel first, and the server's refusal if it says no. */
export function ConfirmModal({
  opened,
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
}: ConfirmModalProps) {
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
      setProblem(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={() => !busy && onClose()}
      title={title}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        {children}
        {problem ? (
          <Alert color="red" variant="light" icon={<AlertIcon />} title="Not done" role="alert">
            {problem}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={busy}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
