import { useLingui } from '@lingui/react/macro';
import { Loader, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { FormAlert } from '../../../components/forms/form-alert';
import { SectionCard } from '../../../components/layout/section-card';
import { failureMessage } from '../../../lib/api-errors';
import {
  twoFactorMessages,
  useGetSecuritySettingsQuery,
  useUpdateSecuritySettingsMutation,
} from './two-factor-endpoints';

/** Administrators only: the platform setting that requires two-factor sign-in of every administrator. */
export function AdminTwoFactorPolicySection() {
  const { t } = useLingui();
  const settings = useGetSecuritySettingsQuery();
  const [update, updating] = useUpdateSecuritySettingsMutation();
  const [error, setError] = useState<string | null>(null);

  const change = async (on: boolean) => {
    setError(null);
    try {
      await update({ require_admin_two_factor: on }).unwrap();
      notifications.show({
        color: 'green',
        message: on
          ? t`Administrators must now use two-factor sign-in.`
          : t`Two-factor sign-in is no longer required of administrators.`,
      });
    } catch (failure) {
      setError(failureMessage(failure, twoFactorMessages.saveSettingsFailed));
    }
  };

  return (
    <SectionCard
      headingId="admin-two-factor-policy-title"
      title={t`Platform policy`}
      description={t`Applies to every administrator of the portal.`}
    >
      {settings.isLoading ? <Loader size="sm" aria-label={t`Loading the security settings`} /> : null}
      {error ? <FormAlert title={t`Not saved`}>{error}</FormAlert> : null}
      {settings.data ? (
        <Switch
          checked={settings.data.require_admin_two_factor}
          disabled={updating.isLoading}
          onChange={(event) => void change(event.currentTarget.checked)}
          label={t`Require two-factor sign-in for administrators`}
          description={t`An administrator without a second factor must set one up before using the admin console.`}
        />
      ) : null}
      {settings.isError ? (
        <Text size="sm" c="red">
          {failureMessage(settings.error, twoFactorMessages.settingsFailed)}
        </Text>
      ) : null}
    </SectionCard>
  );
}
