import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { portalPaths } from '../../../../../shared/routes';
import { Notice } from '../../../components/data/notice';
import { checkoutPath } from '../../plans';
import type { FlagAction, LicenseFlag } from '../license-flags';

const ACTIONS: Record<FlagAction, { label: MessageDescriptor; to: string }> = {
  support: { label: msg`Contact support`, to: portalPaths.support },
  payment: { label: msg`Update payment method`, to: portalPaths.subscriptions },
  renew: { label: msg`Renew`, to: portalPaths.purchase },
  resume: { label: msg`Resume the subscription`, to: portalPaths.subscriptions },
  buy: { label: msg`Buy now`, to: portalPaths.purchase },
  renew_updates: { label: msg`Renew updates`, to: portalPaths.purchase },
};

/** Where an action goes: `buy` and `renew_updates` open the checkout of the flag's plan. */
const destination = (action: FlagAction, flag: LicenseFlag) =>
  (action === 'buy' || action === 'renew_updates') && flag.planId
    ? checkoutPath({ planId: flag.planId })
    : ACTIONS[action].to;

/**
 * A license's flag (revoked, suspended, expired, expiring soon, on trial, trial ended, updates ended) in words, with the way out as
 * buttons: the first one filled, the others light.
 */
export function LicenseFlagAlert({ flag, licenseName }: { flag: LicenseFlag; licenseName: string }) {
  const { t } = useLingui();
  return (
    <Notice tone={flag.tone} title={flag.title} data-testid="license-flag" data-flag={flag.kind}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{flag.message}</Text>
        <Group gap="xs" wrap="wrap">
          {flag.actions.map((action, index) => {
            const label = t(ACTIONS[action].label);
            return (
              <Button
                key={action}
                component={Link}
                to={destination(action, flag)}
                size="xs"
                variant={index === 0 ? 'filled' : 'light'}
                aria-label={t`${label}: ${licenseName}`}
              >
                {label}
              </Button>
            );
          })}
        </Group>
      </Stack>
    </Notice>
  );
}
