import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { type MouseEvent, startTransition, useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { Plan } from '../../../../../shared/api/plans';
import { portalPaths } from '../../../../../shared/routes';
import { ErrorAlert } from '../../../components/forms/error-alert';
import { isFreePlan } from '../plan-format';
import { useAppDispatch, useAppSelector } from '../../../lib/store-hooks';
import { selectIsAuthenticated, withNext } from '../../auth';
import { checkoutPath } from '../checkout-link';
import { readPublicPlans } from '../public-plans-read';
import { usePrerenderedPlans } from '../prerendered-plans';
import { PlanGrid } from './plan-grid';
import { PlanCard, PlanCardSkeleton } from './plan-card';
import { CurrencySelect } from './currency-select';
import { currenciesOf, inCurrency, useShownCurrency } from '../shown-currency';

const SKELETON_CARDS = 3;

/**
 * The way in from the landing page: every plan starts with an account, and a paid one then goes on
 * to its checkout, through registration, the e-mail confirmation and signing in (signed in: there
 * at once).
 */
/** `ready` is false until the plan is the server's (see PlansState): the link then leads nowhere yet. */
function SignUpAction({ plan, ready }: { plan: Plan; ready: boolean }) {
  const { t } = useLingui();
  const signedIn = useAppSelector(selectIsAuthenticated);
  const free = isFreePlan(plan);
  const name = plan.name;
  // The button's accessible name starts with its visible words (WCAG 2.5.3 label in name).
  const action = free ? t`Start free` : t`Get started`;
  const checkout = free ? portalPaths.purchase : checkoutPath({ planId: plan.id });
  return (
    <Button
      component={Link}
      to={signedIn ? checkout : withNext(portalPaths.register, free ? null : checkout)}
      variant={free ? 'default' : 'filled'}
      fullWidth
      aria-label={free ? t`Start free with ${name}` : t`Get started with ${name}`}
      aria-disabled={ready ? undefined : true}
      onClick={ready ? undefined : (event: MouseEvent) => event.preventDefault()}
    >
      {action}
    </Button>
  );
}

/**
 * `current` is false for the plans a page was rendered with at build time: their ids are the
 * build's database's, so nothing may act on them until the server's own have been read.
 */
export type PlansState =
  { state: 'loading' } | { state: 'failed' } | { state: 'loaded'; plans: Plan[]; current: boolean };

/**
 * The landing page's one read outside RTK Query (see `readPublicPlans`): the public plans with its
 * own loading state, dropping an answer that comes after the page is gone; `reload` tries again.
 * A page rendered at build time starts with the plans it was rendered with and keeps them on
 * screen while the current ones are read (and if that read fails).
 */
export function usePublicPlansRead(): { result: PlansState; reload: () => void } {
  const dispatch = useAppDispatch();
  const prerendered = usePrerenderedPlans();
  const [result, setResult] = useState<PlansState>(
    prerendered ? { state: 'loaded', plans: prerendered, current: false } : { state: 'loading' },
  );
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const keepShown = attempt === 0 && prerendered !== null;
    if (!keepShown) setResult({ state: 'loading' });
    let current = true;
    dispatch(readPublicPlans()).then(
      // The whole landing page renders again with them: in slices, so the page stays responsive.
      (plans) => current && startTransition(() => setResult({ state: 'loaded', plans, current: true })),
      () => current && !keepShown && setResult({ state: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [dispatch, attempt, prerendered]);
  const reload = useCallback(() => setAttempt((count) => count + 1), []);
  return { result, reload };
}

/** The public plans (GET /plans/public) with loading skeletons and a failure that says what to do. */
export function PublicPlans({ result, reload }: { result: PlansState; reload: () => void }) {
  const { t } = useLingui();
  if (result.state === 'loading') {
    return (
      <SimpleGrid
        cols={{ base: 1, sm: 2, md: 3 }}
        spacing="lg"
        aria-busy="true"
        aria-label={t`Loading plans`}
      >
        {Array.from({ length: SKELETON_CARDS }, (_, index) => (
          <PlanCardSkeleton key={index} />
        ))}
      </SimpleGrid>
    );
  }

  if (result.state === 'failed') {
    return (
      <ErrorAlert title={t`Plans could not be loaded`}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">
            <Trans>
              The pricing service did not answer. Check your connection and try again; you can still create an
              account and start on the free plan.
            </Trans>
          </Text>
          <Button size="xs" variant="white" color="red" onClick={reload}>
            <Trans>Try again</Trans>
          </Button>
        </Stack>
      </ErrorAlert>
    );
  }

  const { plans, current } = result;
  return <PricedPlans plans={plans} current={current} />;
}

/** The plans at their prices in the visitor's currency, with the choice of another when there is one. */
function PricedPlans({ plans: listed, current }: { plans: Plan[]; current: boolean }) {
  const { currency, choose } = useShownCurrency();
  const plans = listed.map((plan) => inCurrency(plan, currency));
  const currencies = currenciesOf(listed);
  if (plans.length === 0) {
    return (
      <Text c="dimmed" ta="center">
        <Trans>No plans are on sale right now. Create an account to start with the free base license.</Trans>
      </Text>
    );
  }

  return (
    <Stack gap="md">
      {currency && currencies.length > 1 ? (
        <Group justify="flex-end">
          <CurrencySelect currencies={currencies} value={currency} onChange={choose} />
        </Group>
      ) : null}
      <PlanGrid count={plans.length}>
        {/* By code, not id: the build's plans (see PlansState) have other ids than the server's, and
            the cards the page was rendered with are to be updated when those arrive, not made again. */}
        {plans.map((plan) => (
          <PlanCard key={plan.code} plan={plan} action={<SignUpAction plan={plan} ready={current} />} />
        ))}
      </PlanGrid>
    </Stack>
  );
}
