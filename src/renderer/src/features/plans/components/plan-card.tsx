import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Card, Group, List, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Plan } from '../../../../../shared/api/plans';
import { CheckIcon } from '../../../components/brand/icons';
import { formatFeature, formatPlanPrice, formatSeats } from '../plan-format';
import classes from './plan-card.module.css';

export interface PlanCardProps {
  plan: Plan;
  /** The way to get the plan (sign up, buy, renew, activate free); the card's last line. */
  action: ReactNode;
  /** A short line under the action (why it is disabled, what renewing does). */
  note?: ReactNode;
  /** The plan of the user's best active license, marked on /purchase. */
  current?: boolean;
  /** The purchase page's tighter card (four in a row above the payment history). */
  compact?: boolean;
}

/** One plan: price, seats, features with their limits, and the way to get it. */
export function PlanCard({ plan, action, note, current = false, compact = false }: PlanCardProps) {
  // The price, seats and features are written in the language shown (see plan-format.ts).
  const { t } = useLingui();
  const price = formatPlanPrice(plan);
  const name = plan.name;
  const titleId = `${compact ? 'purchase-plan' : 'plan'}-${plan.id}`;
  return (
    <Card
      withBorder
      padding={compact ? 'lg' : 'xl'}
      component="article"
      aria-labelledby={titleId}
      className={current ? `${classes.card} ${classes.current}` : classes.card}
      data-current={current || undefined}
    >
      <Stack gap="md" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Title order={3} id={titleId} fz="lg">
            {plan.name}
          </Title>
          {current ? (
            <Badge variant="filled" color="iris" size="md" style={{ flexShrink: 0 }}>
              <Trans>Current plan</Trans>
            </Badge>
          ) : null}
        </Group>
        <div>
          <Text component="p" fz={compact ? 32 : 36} fw={800} lh={1.1} className={classes.price}>
            {price.amount}
          </Text>
          <Text size="sm" c="dimmed">
            {price.period}
          </Text>
        </div>
        {plan.description ? (
          <Text size="sm" c="dimmed">
            {plan.description}
          </Text>
        ) : null}
        <List
          spacing={8}
          size="sm"
          className={classes.features}
          styles={{ itemLabel: { lineHeight: 1.45 }, itemIcon: { marginTop: 2 } }}
          icon={<CheckIcon size={16} className={classes.check} />}
          aria-label={compact ? t`What ${name} includes` : undefined}
        >
          <List.Item>{formatSeats(plan.max_activations, plan.seat_based)}</List.Item>
          {/* By key, not id: the same feature has another id in the database the landing page was
              rendered from at build time (features/plans/components/public-plans.tsx). */}
          {plan.features.map((feature) => (
            <List.Item key={feature.key}>{formatFeature(feature)}</List.Item>
          ))}
        </List>
        <Stack gap={6} mt="auto">
          {action}
          {note ? (
            <Text size="xs" c="dimmed" ta="center">
              {note}
            </Text>
          ) : null}
        </Stack>
      </Stack>
    </Card>
  );
}

/** A plan card's outline while the plans load (the compact one has the smaller price). */
export function PlanCardSkeleton({ compact = false }: { compact?: boolean }) {
  return (
    <Card withBorder padding="xl" aria-hidden="true">
      <Stack gap="md">
        <Skeleton height={20} width="45%" />
        <Skeleton height={compact ? 32 : 36} width="60%" />
        <Skeleton height={12} width="90%" />
        <Skeleton height={12} width="80%" />
        <Skeleton height={12} width="70%" />
        <Skeleton height={36} mt="md" />
      </Stack>
    </Card>
  );
}
