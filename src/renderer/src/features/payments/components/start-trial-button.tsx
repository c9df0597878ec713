import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router-dom';
import type { Plan } from '../../../../../shared/api/plans';
import { portalPaths } from '../../../../../shared/routes';
import { dayCount } from '../../../../../shared/trial-days';
import { wrappingLabel } from '../../../components/forms/wrapping-label';
import { failureMessage } from '../../../lib/api-errors';
import { useStartTrialMutation } from '../../licenses';

/** The label of a plan's free-trial button: "Start free trial (14 days)". */
export const trialLabel = (plan: Pick<Plan, 'trial_days'>) =>
  `Start free trial (${dayCount(plan.trial_days)})`;

/**
 * Starts the free trial of a plan in one click, no card: the license is issued (and in the desktop
 * this machine activated), and the customer lands on their licenses. A refusal (a trial had
 * before, on this account, address or machine) is said as the server words it.
 */
export function StartTrialButton({ plan, disabled = false }: { plan: Plan; disabled?: boolean }) {
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
    notifications.show({ color: 'teal', title: 'Free trial started', message: result.data.message });
    void navigate(portalPaths.licenses);
  };
  return (
    <Button
      fullWidth
      {...wrappingLabel}
      variant="light"
      loading={isLoading}
      disabled={disabled && !isLoading}
      onClick={() => void start()}
      aria-label={`${trialLabel(plan)} of ${plan.name}, no card needed`}
    >
      {trialLabel(plan)}
    </Button>
  );
}
