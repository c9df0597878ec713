import { Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { portalPaths } from '../../../../../shared/routes';
import { Notice } from '../../../components/data/notice';
import { checkoutPath } from '../../plans';
import type { FlagAction, LicenseFlag } from '../license-flags';

const ACTIONS: Record<FlagAction, { label: string; to: string }> = {
  support: { label: 'Contact support', to: portalPaths.support },
  payment: { label: 'Update payment method', to: portalPaths.subscriptions },
  renew: { label: 'Renew', to: portalPaths.purchase },
  resume: { label: 'Resume the subscription', to: portalPaths.subscriptions },
  buy: { label: 'Buy now', to: portalPaths.purchase },
  renew_updates: { label: 'Renew updates', to: portalPaths.purchase },
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
  return (
    <Notice tone={flag.tone} title={flag.title} data-testid="license-flag" data-flag={flag.kind}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{flag.message}</Text>
        <Group gap="xs" wrap="wrap">
          {flag.actions.map((action, index) => (
            <Button
              key={action}
              component={Link}
              to={destination(action, flag)}
              size="xs"
              variant={index === 0 ? 'filled' : 'light'}
              aria-label={`${ACTIONS[action].label}: ${licenseName}`}
            >
              {ACTIONS[action].label}
            </Button>
          ))}
        </Group>
      </Stack>
    </Notice>
  );
}
