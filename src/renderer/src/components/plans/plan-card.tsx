import { Button, Card, List, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { Plan } from '../../../../shared/api/plans';
import { portalPaths } from '../../../../shared/routes';
import { CheckIcon } from '../brand/icons';
import { formatFeature, formatPlanPrice, formatSeats } from './plan-format';
import classes from './plan-card.module.css';

/** One public plan on the landing page: price, seats, features with their limits, a way in. */
export function PlanCard({ plan }: { plan: Plan }) {
  const price = formatPlanPrice(plan);
  const titleId = `plan-${plan.id}`;
  // The button's accessible name starts with its visible words (WCAG 2.5.3 label in name).
  const action = price.amount === 'Free' ? 'Start free' : 'Get started';
  return (
    <Card withBorder padding="xl" className={classes.card} component="article" aria-labelledby={titleId}>
      <Stack gap="md" h="100%">
        <Title order={3} id={titleId} fz="lg">
          {plan.name}
        </Title>
        <div>
          <Text component="p" fz={36} fw={800} lh={1.1} className={classes.price}>
            {price.amount}
          </Text>
          <Text size="sm" c="dimmed">
            {price.period}
          </Text>
        </div>
        {plan.description && (
          <Text size="sm" c="dimmed">
            {plan.description}
          </Text>
        )}
        <List
          spacing={8}
          size="sm"
          className={classes.features}
          styles={{ itemLabel: { lineHeight: 1.45 }, itemIcon: { marginTop: 2 } }}
          icon={<CheckIcon size={16} className={classes.check} />}
        >
          <List.Item>{formatSeats(plan.max_activations)}</List.Item>
          {plan.features.map((feature) => (
            <List.Item key={feature.feature_id}>{formatFeature(feature)}</List.Item>
          ))}
        </List>
        <Button
          component={Link}
          to={portalPaths.register}
          variant={price.amount === 'Free' ? 'default' : 'filled'}
          fullWidth
          mt="auto"
          aria-label={`${action} with ${plan.name}`}
        >
          {action}
        </Button>
      </Stack>
    </Card>
  );
}
