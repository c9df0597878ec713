import { Button, type ButtonProps } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router-dom';
import type { TrialStarted } from '../../../../../shared/api/licenses';
import type { Plan } from '../../../../../shared/api/plans';
import { portalPaths } from '../../../../../shared/routes';
import { dayCount } from '../../../../../shared/trial-days';
import { wrappingLabel } from '../../../components/forms/wrapping-label';
import { failureMessage } from '../../../lib/api-errors';
import { formatDate } from '../../../lib/format-date';
import { useStartTrialMutation } from '../../licenses';

/** The label of a plan's free-trial button: "Start free trial (14 days)". */
export const trialLabel = (plan: Pick<Plan, 'trial_days'>) =>
  `Start free trial (${dayCount(plan.trial_days)})`;

/**
 * What the portal says once a trial started, its date written as every portal date is (the
 * reader's locale), where the server's message writes it for mail ("18 December 2026").
 */
export function trialStartedText(plan: Pick<Plan, 'name'>, started: TrialStarted): string {
  const until = started.trial
    ? `: ${dayCount(started.trial.days_left)}, until ${formatDate(started.trial.ends_at)}`
    : '';
  return `Your free trial of ${plan.name} has started${until}.${started.activation ? ' This machine is activated.' : ''}`;
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
  const [startTrial, { isLoading }] = useStartTrialMutation();
  const navigate = useNavigate();
  const start = async () => {
    const result = await startTrial({ planId: plan.id });
    if ('error' in result) {
      notifications.show({
        color: 'red',
        title: 'The free trial was not started',
        message: failureMessage(result.error, 'The free trial could not be started'),
      });
      return;
    }
    notifications.show({
      color: 'teal',
      title: 'Free trial started',
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
      aria-label={`${label} of ${plan.name}, no card needed`}
    >
      {label}
    </Button>
  );
}
