import { useLingui } from '@lingui/react/macro';
import { Text, Textarea } from '@mantine/core';
import { ADMIN_CANCEL_REASON_MAX_LENGTH } from '../../../../../shared/api/admin-subscriptions';

interface AdminReasonFieldProps {
  id: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}

/**
 * The reason an administrator gives for acting on a customer's subscription (cancel, pause,
 * resume), required and kept in the security log: a textarea with what is left of its length.
 */
export function AdminReasonField({ id, value, error, onChange }: AdminReasonFieldProps) {
  const { t } = useLingui();
  return (
    <div>
      <Textarea
        id={id}
        label={t`Reason`}
        description={t`Kept in the security log with your name.`}
        required
        rows={3}
        maxLength={ADMIN_CANCEL_REASON_MAX_LENGTH}
        data-autofocus
        value={value}
        error={error}
        onChange={(event) => onChange(event.currentTarget.value)}
        inputWrapperOrder={['label', 'description', 'input', 'error']}
      />
      <Text size="xs" c="dimmed" ta="right" mt={4}>
        {value.length} / {ADMIN_CANCEL_REASON_MAX_LENGTH}
      </Text>
    </div>
  );
}
