import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { NativeSelect, NumberInput, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useEffect, useState } from 'react';
import type { AdminLicense } from '../../../../../shared/api/admin';
import { MAX_TRIAL_DAYS } from '../../../../../shared/api/plans';
import { adminMessages } from '../../../../../shared/screen-messages';
import { FormDialog } from '../../../components/forms/form-dialog';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { formatDate } from '../../licenses';
import { useChangeLicenseTrialMutation } from '../admin-endpoints';
import { trialSourceStarted } from './trial-source';

const ACTIONS: { value: 'extend' | 'end'; label: MessageDescriptor }[] = [
  { value: 'extend', label: msg`Extend the trial` },
  { value: 'end', label: msg`End the trial now` },
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
  const { t, i18n } = useLingui();
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
      const ends = saved.trial ? formatDate(saved.trial.ends_at) : '';
      notifications.show({
        color: 'teal',
        title: action === 'end' ? t`Trial ended` : t`Trial extended`,
        message: saved.trial ? t`The trial now ends on ${ends}.` : t`Saved.`,
      });
      onClose();
    } catch (error) {
      setFailure(toSubmitFailure(error, adminMessages.changeTrialFailed).message);
    } finally {
      setSubmitting(false);
    }
  };

  const trial = license?.trial;
  const key = license?.license_key;
  const email = license?.user_email;
  const who = email ?? t`deleted account`;
  const plan = license?.plan.name;
  const started = trial ? trialSourceStarted(trial.source, i18n) : '';
  const startedOn = trial ? formatDate(trial.started_at) : '';
  const endsOn = trial ? formatDate(trial.ends_at) : '';
  const daysLeft = trial?.days_left ?? 0;

  return (
    <FormDialog
      opened={license !== null}
      ready={license !== null}
      onClose={onClose}
      title={t`Free trial`}
      onSubmit={(event) => void submit(event)}
      intro={
        trial && (
          <Text size="sm">
            {daysLeft > 0 ? (
              <Trans>
                {key} · {who}: a trial of {plan} {started} on {startedOn}, ending on {endsOn} (
                <Plural value={daysLeft} one="# day left" other="# days left" />
                ).
              </Trans>
            ) : (
              <Trans>
                {key} · {who}: a trial of {plan} {started} on {startedOn}, ended on {endsOn}.
              </Trans>
            )}
          </Text>
        )
      }
      failure={failure}
      failureTitle={t`Could not change the trial`}
      submitLabel={action === 'end' ? t`End trial` : t`Extend trial`}
      {...(action === 'end' ? { submitColor: 'red.9' } : {})}
      submitting={submitting}
    >
      <NativeSelect
        label={t`Change`}
        size="md"
        data={ACTIONS.map(({ value, label }) => ({ value, label: i18n._(label) }))}
        value={action}
        onChange={(event) => setAction(event.currentTarget.value as 'extend' | 'end')}
      />
      {action === 'extend' ? (
        <NumberInput
          label={t`Days to add`}
          description={t`From the trial's end, or from today once it ended (1–${MAX_TRIAL_DAYS}).`}
          size="md"
          min={1}
          max={MAX_TRIAL_DAYS}
          allowDecimal={false}
          allowNegative={false}
          value={days}
          onChange={setDays}
          error={validDays ? undefined : t`Enter 1 to ${MAX_TRIAL_DAYS} days`}
        />
      ) : null}
    </FormDialog>
  );
}
