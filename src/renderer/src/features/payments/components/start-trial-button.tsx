import { plural, t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Button, type ButtonProps } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router-dom';
import type { TrialStarted } from '../../../../../shared/api/licenses';
import type { Plan } from '../../../../../shared/api/plans';
import { portalPaths } from '../../../../../shared/routes';
import { wrappingLabel } from '../../../components/forms/wrapping-label';
import { failureMessage } from '../../../lib/api-errors';
import { formatDate } from '../../../lib/format-date';
import { useStartTrialMutation } from '../../licenses';

/** The label of a plan's free-trial button: "Start free trial (14 days)". */
export function trialLabel(plan: Pick<Plan, 'trial_days'>): string {
  const days = plan.trial_days;
  return plural(days, { one: 'Start free trial (# day)', other: 'Start free trial (# days)' });
}

/**
 * What the portal says once a trial started, its date written as every portal date is (the
 * reader's locale), where the server's message writes it for mail ("18 December 2026").
 */
export function trialStartedText(plan: Pick<Plan, 'name'>, started: TrialStarted): string {
  const planName = plan.name;
  const trial = started.trial;
  const until = trial ? formatDate(trial.ends_at) : '';
  const left = trial?.days_left ?? 0;
  const text = trial
    ? plural(left, {
        one: `Your free trial of ${planName} has started: # day, until ${until}.`,
        other: `Your free trial of ${planName} has started: # days, until ${until}.`,
      })
    : t`Your free trial of ${planName} has started.`;
  return started.activation ? `${text} ${t`This machine is activated.`}` : text;
}

export interface StartTrialButtonProps {
  plan: Plan;
  disabled?: boolean;
  /** The visible words, "Start free trial (14 days)" unless given. */
  label?: string;
  size?: ButtonProps['size'];
  variant?: ButtonProps['variant'];
  fullWidth?: boolean;
}

/**
 * Starts the free trial of a plan in one click, no card: the license is issued (and in the desktop
 * this machine activated), and the customer lands on their licenses. A refusal (a trial had
 * before, on this account, address or machine) is said as the server words it.
 */
export function StartTrialButton({
  plan,
  disabled = false,
  label = trialLabel(plan),
  size,
  variant = 'light',
  fullWidth = true,
}: StartTrialButtonProps) {
  const { t } = useLingui();
  const [startTrial, { isLoading }] = useStartTrialMutation();
  const planName = plan.name;
  const navigate = useNavigate();
  const start = async () => {
    const result = await startTrial({ planId: plan.id });
    if ('error' in result) {
      notifications.show({
        color: 'red',
        title: t`The free trial was not started`,
        message: failureMessage(result.error, t`The free trial could not be started`),
      });
      return;
    }
    notifications.show({
      color: 'teal',
      title: t`Free trial started`,
      message: trialStartedText(plan, result.data),
    });
    void navigate(portalPaths.licenses);
  };
  return (
    <Button
      fullWidth={fullWidth}
      {...wrappingLabel}
      size={size}
      variant={variant}
      loading={isLoading}
      disabled={disabled && !isLoading}
      onClick={() => void start()}
      aria-label={t`${label} of ${planName}, no card needed`}
    >
      {label}
    </Button>
  );
}
