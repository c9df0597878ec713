import { Trans, useLingui } from '@lingui/react/macro';
import { Button, List, Stack, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router-dom';
import { BASE_PLAN_CODE } from '../../../../../shared/api/plans';
import { licenseMessages } from '../../../../../shared/screen-messages';
import { portalPaths } from '../../../../../shared/routes';
import { KeyIcon } from '../../../components/brand/icons';
import { EmptyStateCard } from '../../../components/data/empty-state-card';
import { Notice } from '../../../components/data/notice';
import { showToast } from '../../../components/data/toast';
import { failureMessage } from '../../../lib/api-errors';
import { formatFeature, formatSeats, useGetPublicPlansQuery } from '../../plans';
import { useActivateBaseLicenseMutation } from '../licenses-endpoints';

/** The "Activate the free Base license" button: activates this machine on the user's Base license. */
export function ActivateBaseButton({
  onFailed,
  variant = 'filled',
}: {
  onFailed(message: string | null): void;
  variant?: 'filled' | 'light';
}) {
  const { t } = useLingui();
  const [activateBase, { isLoading }] = useActivateBaseLicenseMutation();

  const activate = async () => {
    onFailed(null);
    const result = await activateBase();
    if (!result.data) {
      onFailed(failureMessage(result.error, licenseMessages.baseActivationFailed));
      return;
    }
    showToast({
      title: t`Base license activated`,
      message: t`This machine now uses your free Base license.`,
    });
  };

  return (
    <Button
      onClick={() => void activate()}
      loading={isLoading}
      variant={variant}
      leftSection={<KeyIcon size={18} />}
    >
      <Trans>Activate the free Base license</Trans>
    </Button>
  );
}

/**
 * For a user without a Base license: what the free plan gives, a button that activates it on this
 * machine, and the way to the paid plans.
 */
export function BaseLicenseOffer({
  hasLicenses,
  footnote,
  order = 2,
}: {
  /** The user already holds other licenses: a lighter offer, not the page's empty state. */
  hasLicenses: boolean;
  /** A line under the offer (where else to go). */
  footnote?: ReactNode;
  /** Heading level of the offer's title. */
  order?: 2 | 3;
}) {
  const { t } = useLingui();
  // The free plan as offered (its seats and limits); without the catalogue the offer stands alone.
  const { data: plans } = useGetPublicPlansQuery();
  const plan = (Array.isArray(plans) ? plans : []).find((item) => item.code === BASE_PLAN_CODE) ?? null;
  const [failure, setFailure] = useState<string | null>(null);
  const features = plan?.features ?? [];

  return (
    <EmptyStateCard
      order={order}
      icon={<KeyIcon size={28} />}
      title={hasLicenses ? t`Free Base license` : t`You have no license yet`}
      description={
        hasLicenses
          ? t`Every account may also use the free Base plan on one machine.`
          : t`Start with the free Base plan on this machine, or buy a plan for more machines and higher limits.`
      }
      actions={
        <>
          <ActivateBaseButton onFailed={setFailure} variant={hasLicenses ? 'light' : 'filled'} />
          {hasLicenses ? null : (
            <Button component={Link} to={portalPaths.purchase} variant="default">
              <Trans>See paid plans</Trans>
            </Button>
          )}
        </>
      }
    >
      <Stack gap="sm" w="100%" mt="xs">
        {plan ? (
          <List size="sm" spacing={4} center ta="left" mx="auto" aria-label={t`The Base plan includes`}>
            <List.Item>{formatSeats(plan.max_activations)}</List.Item>
            {features.map((feature) => (
              <List.Item key={feature.feature_id}>{formatFeature(feature)}</List.Item>
            ))}
            <List.Item>
              <Trans>Free, no card needed</Trans>
            </List.Item>
          </List>
        ) : null}
        {failure ? (
          <Notice tone="danger" title={t`Base license activation failed`} urgent>
            {failure}
          </Notice>
        ) : null}
        {footnote ? (
          <Text size="xs" c="dimmed" ta="center">
            {footnote}
          </Text>
        ) : null}
      </Stack>
    </EmptyStateCard>
  );
}
