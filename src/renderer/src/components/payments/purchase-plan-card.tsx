import { Badge, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Plan } from '../../../../shared/api/plans';
import { CheckIcon } from '../brand/icons';
import { formatFeature, formatPlanPrice, formatSeats } from '../plans/plan-format';
import planClasses from '../plans/plan-card.module.css';
import classes from './purchase-plan-card.module.css';

export interface PurchasePlanCardProps {
  plan: Plan;
  /** The plan of the user's best active licence. */
  current: boolean;
  /** The way to get the plan (buy, renew, activate free); the card's last line. */
  action: ReactNode;
  /** A short line under the action (why it is disabled, what renewing does). */
  note?: ReactNode;
}

/** One plan on /purchase: price, seats, features with limits, the user's current plan marked. */
export function PurchasePlanCard({ plan, current, action, note }: PurchasePlanCardProps) {
  const price = formatPlanPrice(plan);
  const titleId = `purchase-plan-${plan.id}`;
  return (
    <Card
      withBorder
      padding="lg"
      component="article"
      aria-labelledby={titleId}
      className={`${planClasses.card} ${current ? classes.current : ''}`}
      data-current={current || undefined}
    >
      <Stack gap="md" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Title order={3} id={titleId} fz="lg">
            {plan.name}
          </Title>
          {current ? (
            <Badge variant="filled" color="iris" size="md" style={{ flexShrink: 0 }}>
              Current plan
            </Badge>
          ) : null}
        </Group>
        <div>
          <Text component="p" fz={32} fw={800} lh={1.1} className={planClasses.price}>
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
          className={planClasses.features}
          styles={{ itemLabel: { lineHeight: 1.45 }, itemIcon: { marginTop: 2 } }}
          icon={<CheckIcon size={16} className={planClasses.check} />}
          aria-label={`What ${plan.name} includes`}
        >
          <List.Item>{formatSeats(plan.max_activations)}</List.Item>
          {plan.features.map((feature) => (
            <List.Item key={feature.feature_id}>{formatFeature(feature)}</List.Item>
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
