import { Button, List, Stack, Text } from '@mantine/core';
import { type ReactNode, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { License } from '../../../../shared/api/licenses';
import { BASE_PLAN_CODE, type Plan } from '../../../../shared/api/plans';
import { licenseMessages } from '../../../../shared/messages';
import { portalPaths } from '../../../../shared/routes';
import { Notice } from '../../components/data/notice';
import { showToast } from '../../components/data/toast';
import { useAppDispatch } from '../../app/hooks';
import { KeyIcon } from '../../components/brand/icons';
import { EmptyStateCard } from '../../components/data/empty-state-card';
import { formatFeature, formatSeats } from '../../components/plans/plan-format';
import { fetchPublicPlans } from '../plans/plans-api';
import { activateBaseLicense } from './license-slice';
import { loadThisDevice } from './this-device';

/** The free Base plan as offered (for its seats and limits), or null when the catalogue is unavailable. */
function useBasePlan(): Plan | null {
  const [plan, setPlan] = useState<Plan | null>(null);
  useEffect(() => {
    let live = true;
    fetchPublicPlans()
      .then((plans) => {
        if (live && Array.isArray(plans)) setPlan(plans.find((item) => item.code === BASE_PLAN_CODE) ?? null);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return plan;
}

/** The "Activate the free Base license" button: activates this machine on the user's Base license. */
export function ActivateBaseButton({
  onActivated,
  onFailed,
  variant = 'filled',
}: {
  onActivated?(licence: License): void;
  onFailed(message: string | null): void;
  variant?: 'filled' | 'light';
}) {
  const dispatch = useAppDispatch();
  const [pending, setPending] = useState(false);

  const activate = async () => {
    setPending(true);
    onFailed(null);
    const device = await dispatch(loadThisDevice());
    const { hardwareId: _hardwareId, ...description } = loadThisDevice.fulfilled.match(device)
      ? device.payload
      : { hardwareId: '' };
    const result = await dispatch(activateBaseLicense(description));
    setPending(false);
    if (activateBaseLicense.rejected.match(result)) {
      onFailed(result.payload ?? licenseMessages.baseActivationFailed);
      return;
    }
    showToast({
      title: 'Base license activated',
      message: 'This machine now uses your free Base license.',
    });
    onActivated?.(result.payload);
  };

  return (
    <Button
      onClick={() => void activate()}
      loading={pending}
      variant={variant}
      leftSection={<KeyIcon size={18} />}
    >
      Activate the free Base license
    </Button>
  );
}

/**
 * For a user without a Base license: what the free plan gives, a button that activates it on this
 * machine, and the way to the paid plans.
 */
export function BaseLicenseOffer({
  hasLicences,
  onActivated,
  footnote,
  order = 2,
}: {
  /** The user already holds other licences: a lighter offer, not the page's empty state. */
  hasLicences: boolean;
  onActivated?(licence: License): void;
  /** A line under the offer (where else to go). */
  footnote?: ReactNode;
  /** Heading level of the offer's title. */
  order?: 2 | 3;
}) {
  const plan = useBasePlan();
  const [failure, setFailure] = useState<string | null>(null);
  const features = plan?.features ?? [];

  return (
    <EmptyStateCard
      order={order}
      icon={<KeyIcon size={28} />}
      title={hasLicences ? 'Free Base license' : 'You have no license yet'}
      description={
        hasLicences
          ? 'Every account may also use the free Base plan on one machine.'
          : 'Start with the free Base plan on this machine, or buy a plan for more machines and higher limits.'
      }
      actions={
        <>
          <ActivateBaseButton
            onActivated={onActivated}
            onFailed={setFailure}
            variant={hasLicences ? 'light' : 'filled'}
          />
          {hasLicences ? null : (
            <Button component={Link} to={portalPaths.purchase} variant="default">
              See paid plans
            </Button>
          )}
        </>
      }
    >
      <Stack gap="sm" w="100%" mt="xs">
        {plan ? (
          <List size="sm" spacing={4} center ta="left" mx="auto" aria-label="The Base plan includes">
            <List.Item>{formatSeats(plan.max_activations)}</List.Item>
            {features.map((feature) => (
              <List.Item key={feature.feature_id}>{formatFeature(feature)}</List.Item>
            ))}
            <List.Item>Free, no card needed</List.Item>
          </List>
        ) : null}
        {failure ? (
          <Notice tone="danger" title="Base license activation failed" urgent>
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
