import { useLingui } from '@lingui/react/macro';
import { NativeSelect, NumberInput, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useEffect, useState } from 'react';
import type { AdminLicense } from '../../../../../shared/api/admin';
import { MAX_TRIAL_DAYS } from '../../../../../shared/api/plans';
import { adminMessages } from '../../../../../shared/messages';
import { dayCount } from '../../../../../shared/trial-days';
import { FormDialog } from '../../../components/forms/form-dialog';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { formatDate } from '../../licenses';
import { useChangeLicenseTrialMutation } from '../admin-endpoints';
import { trialSourceStarted } from './trial-source';

const ACTIONS = [
  { value: 'extend', label: 'Extend the trial' },
  { value: 'end', label: 'End the trial now' },
];

/**
 * A license's free trial: where it came from and when it ends; the administrator extends it by
 * some days (from its end, or from today once it ended) or ends it now.
 */
export function TrialLicenseModal({
  license,
  onClose,
}: {
  /** A trial license; null keeps the modal closed. */
  license: AdminLicense | null;
  onClose: () => void;
}) {
  const { i18n } = useLingui();
  const [changeTrial] = useChangeLicenseTrialMutation();
  const [action, setAction] = useState<'extend' | 'end'>('extend');
  const [days, setDays] = useState<number | string>(7);
  const [failure, setFailure] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  useEffect(() => {
    setAction('extend');
    setDays(7);
    setFailure(undefined);
  }, [license]);

  const validDays = typeof days === 'number' && Number.isInteger(days) && days >= 1 && days <= MAX_TRIAL_DAYS;
  const submit = async (event?: FormEvent<HTMLFormElement>) => {
    event?.preventDefault();
    if (!license || (action === 'extend' && !validDays)) return;
    setFailure(undefined);
    setSubmitting(true);
    try {
      const saved = await changeTrial({
        id: license.license_id,
        change: action === 'end' ? { action: 'end' } : { action: 'extend', days: days as number },
      }).unwrap();
      notifications.show({
        color: 'teal',
        title: action === 'end' ? 'Trial ended' : 'Trial extended',
        message: saved.trial ? `The trial now ends on ${formatDate(saved.trial.ends_at)}.` : 'Saved.',
      });
      onClose();
    } catch (error) {
      setFailure(toSubmitFailure(error, adminMessages.changeTrialFailed).message);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <FormDialog
      opened={license !== null}
      ready={license !== null}
      onClose={onClose}
      title="Free trial"
      onSubmit={(event) => void submit(event)}
      intro={
        license?.trial && (
          <Text size="sm">
            {license.license_key} · {license.user_email ?? 'deleted account'}: a trial of {license.plan.name}{' '}
            {trialSourceStarted(license.trial.source, i18n)} on {formatDate(license.trial.started_at)},{' '}
            {license.trial.days_left > 0
              ? `ending on ${formatDate(license.trial.ends_at)} (${dayCount(license.trial.days_left)} left).`
              : `ended on ${formatDate(license.trial.ends_at)}.`}
          </Text>
        )
      }
      failure={failure}
      failureTitle="Could not change the trial"
      submitLabel={action === 'end' ? 'End trial' : 'Extend trial'}
      {...(action === 'end' ? { submitColor: 'red.9' } : {})}
      submitting={submitting}
    >
      <NativeSelect
        label="Change"
        size="md"
        data={ACTIONS}
        value={action}
        onChange={(event) => setAction(event.currentTarget.value as 'extend' | 'end')}
      />
      {action === 'extend' ? (
        <NumberInput
          label="Days to add"
          description={`From the trial's end, or from today once it ended (1–${MAX_TRIAL_DAYS}).`}
          size="md"
          min={1}
          max={MAX_TRIAL_DAYS}
          allowDecimal={false}
          allowNegative={false}
          value={days}
          onChange={setDays}
          error={validDays ? undefined : `Enter 1 to ${MAX_TRIAL_DAYS} days`}
        />
      ) : null}
    </FormDialog>
  );
}
