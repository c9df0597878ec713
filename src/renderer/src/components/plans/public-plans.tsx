import { Button, Card, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import type { Plan } from '../../../../shared/api/plans';
import { fetchPublicPlans } from '../../features/plans/plans-api';
import { ErrorAlert } from '../forms/error-alert';
import { PlanCard } from './plan-card';

type PlansState = { state: 'loading' } | { state: 'failed' } | { state: 'loaded'; plans: Plan[] };

const SKELETON_CARDS = 3;

function PlanSkeleton() {
  return (
    <Card withBorder padding="xl" aria-hidden="true">
      <Stack gap="md">
        <Skeleton height={20} width="45%" />
        <Skeleton height={36} width="60%" />
        <Skeleton height={12} width="90%" />
        <Skeleton height={12} width="80%" />
        <Skeleton height={12} width="70%" />
        <Skeleton height={36} mt="md" />
      </Stack>
    </Card>
  );
}

/** The public plans (GET /plans/public) with loading skeletons and a failure that says what to do. */
export function PublicPlans() {
  const [plans, setPlans] = useState<PlansState>({ state: 'loading' });

  const load = useCallback(() => {
    setPlans({ state: 'loading' });
    let current = true;
    fetchPublicPlans().then(
      (loaded) => current && setPlans({ state: 'loaded', plans: loaded }),
      () => current && setPlans({ state: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, []);

  useEffect(load, [load]);

  if (plans.state === 'loading') {
    return (
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg" aria-busy="true" aria-label="Loading plans">
        {Array.from({ length: SKELETON_CARDS }, (_, index) => (
          <PlanSkeleton key={index} />
        ))}
      </SimpleGrid>
    );
  }

  if (plans.state === 'failed') {
    return (
      <ErrorAlert title="Plans could not be loaded">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">
            The pricing service did not answer. Check your connection and try again; you can still create an
            account and start on the free plan.
          </Text>
          <Button size="xs" variant="white" color="red" onClick={load}>
            Try again
          </Button>
        </Stack>
      </ErrorAlert>
    );
  }

  if (plans.plans.length === 0) {
    return (
      <Text c="dimmed" ta="center">
        No plans are on sale right now. Create an account to start with the free base license.
      </Text>
    );
  }

  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: Math.min(plans.plans.length, 4) }} spacing="lg">
      {plans.plans.map((plan) => (
        <PlanCard key={plan.id} plan={plan} />
      ))}
    </SimpleGrid>
  );
}
