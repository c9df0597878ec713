import { useLingui } from '@lingui/react/macro';
import { useMantineColorScheme } from '@mantine/core';
import { useEffect } from 'react';
import { userMessages } from '../../../../shared/screen-messages';
import { showToast } from '../../components/data/toast';
import { ColorSchemeToggle } from '../../components/layout/color-scheme-toggle';
import { failureMessage } from '../../lib/api-errors';
import { useAppSelector } from '../../lib/store-hooks';
import { useApplyTheme } from './use-color-scheme-preference';
import { useUpdateMyPreferencesMutation } from './users-endpoints';
import { selectPreferences } from './user-slice';

/**
 * The header's light/dark switch of a signed-in user, with the account's theme as the one source
 * of truth: the saved preference is applied when it arrives (sign-in, a restored session, a save
 * on the profile or on another device's sign-in), and a switch is applied at once and saved to the
 * account; a refused save puts the saved theme back and says so. 'System' follows the device.
 */
export function AccountThemeToggle() {
  const { t } = useLingui();
  const theme = useAppSelector(selectPreferences).theme;
  const applyTheme = useApplyTheme();
  const { setColorScheme } = useMantineColorScheme();
  const [updateMyPreferences] = useUpdateMyPreferencesMutation();

  useEffect(() => {
    if (theme) applyTheme(theme);
  }, [theme, applyTheme]);

  const save = async (scheme: 'light' | 'dark') => {
    setColorScheme(scheme);
    try {
      await updateMyPreferences({ theme: scheme }).unwrap();
    } catch (error) {
      if (theme) applyTheme(theme);
      showToast({
        title: t`Theme not saved`,
        message: failureMessage(error, userMessages.updatePreferencesFailed),
        tone: 'error',
      });
    }
  };

  return <ColorSchemeToggle onChange={(scheme) => void save(scheme)} />;
}
