import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Stack, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import type { Plan } from '../../../../../shared/api/plans';
import { portalPaths } from '../../../../../shared/routes';
import { withNext } from '../../auth';

/** The query parameter of /landing that names the plan whose trial a visitor came back for. */
export const TRIAL_PARAM = 'trial';

const LandingTrialButton = lazy(() => import('./landing-trial-button'));

/**
 * The plan the landing page offers a free trial of: the one named by `?trial=` when it offers one,
 * else the first public plan that does (bought by one person, not per seat, not free); null when none.
 */
export function trialPlanOf(plans: readonly Plan[], wanted: string | null): Plan | null {
  const offering = plans.filter(
    (plan) =>
      plan.trial_days > 0 && !plan.seat_based && plan.price_minor > 0 && plan.billing_interval !== 'free',
  );
  return offering.find((plan) => plan.id === wanted) ?? offering[0] ?? null;
}

/** "Start your 14-day free trial", in the language shown. */
export function trialOfferLabel(plan: Pick<Plan, 'trial_days'>): string {
  const days = plan.trial_days;
  return plural(days, { one: 'Start your #-day free trial', other: 'Start your #-day free trial' });
}

/**
 * "Start your 14-day free trial" on the landing page. A visitor is sent to create an account and
 * comes back here to start it; a signed-in customer starts it in one click (administrators are
 * offered none).
 */
export function LandingTrialOffer({ plan, signedIn }: { plan: Plan; signedIn: 'customer' | 'admin' | null }) {
  const { t } = useLingui();
  if (signedIn === 'admin') return null;
  const label = trialOfferLabel(plan);
  const name = plan.name;
  const back = `${portalPaths.landing}?${new URLSearchParams({ [TRIAL_PARAM]: plan.id }).toString()}`;
  return (
    <Stack gap={6} align="center" data-testid="landing-trial">
      {signedIn ? (
        <Suspense fallback={null}>
          <LandingTrialButton plan={plan} label={label} />
        </Suspense>
      ) : (
        <Button
          component={Link}
          to={withNext(portalPaths.register, back)}
          size="lg"
          variant="light"
          aria-label={t`${label} of ${name}: create an account first, no card needed`}
        >
          {label}
        </Button>
      )}
      <Text size="sm" c="dimmed">
        <Trans>{name}, no card needed: when the trial ends, buy it or let it end.</Trans>
      </Text>
    </Stack>
  );
}
