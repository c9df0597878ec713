import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { Plan } from '../../../../../shared/api/plans';
import { Notice } from '../../../components/data/notice';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { planMessages, usePublishPlanMutation } from '../../plans';

export interface PackagePublishPanelProps {
  /** A draft package (the panel shows nothing for a published one). */
  plan: Plan;
  onPublished: (plan: Plan) => void;
}

/**
 * A draft is neither listed nor sold: the administrator publishes it once it includes at least one
 * feature (the server checks the same, so a stale drawer is answered in words).
 */
export function PackagePublishPanel({ plan, onPublished }: PackagePublishPanelProps) {
  const { t } = useLingui();
  const [publish, publishing] = usePublishPlanMutation();
  const [failure, setFailure] = useState<string | null>(null);
  if (!plan.is_draft || plan.archived_at) return null;
  const ready = plan.features.length > 0;

  const submit = async () => {
    setFailure(null);
    try {
      const published = await publish(plan.id).unwrap();
      const name = published.name;
      notifications.show({
        color: 'teal',
        title: t`Package published`,
        message: published.is_public
          ? t`${name} is on the purchase page now.`
          : t`${name} is on sale; it stays off the purchase page while it is hidden.`,
      });
      onPublished(published);
    } catch (error) {
      setFailure(toSubmitFailure(error, planMessages.publishPlanFailed).message);
    }
  };

  return (
    <Notice tone="info" title={t`Draft: not on sale yet`}>
      <Text size="sm">
        {ready ? (
          <Trans>
            Customers do not see this package until it is published. Check its features and details, then
            publish it.
          </Trans>
        ) : (
          <Trans>
            Customers do not see this package until it is published. Choose at least one feature first.
          </Trans>
        )}
      </Text>
      {failure ? (
        <Text size="sm" c="var(--mantine-color-error)" mt="xs" role="alert">
          {failure}
        </Text>
      ) : null}
      <Group mt="sm">
        <Button size="sm" onClick={() => void submit()} loading={publishing.isLoading} disabled={!ready}>
          <Trans>Publish package</Trans>
        </Button>
      </Group>
    </Notice>
  );
}
