import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Group, Radio, Stack, Switch } from '@mantine/core';
import { useRef, useState } from 'react';
import {
  defaultPreferences,
  type Preferences,
  THEMES,
  type UpdatePreferencesRequest,
} from '../../../../../shared/api/users';
import { userMessages } from '../../../../../shared/screen-messages';
import { AlertIcon } from '../../../components/brand/icons';
import { Notice } from '../../../components/data/alert-notice';
import { showToast } from '../../../components/data/toast';
import { LanguageSelect } from '../../../components/layout/language-select';
import { SectionCard } from '../../../components/layout/section-card';
import { failureMessage } from '../../../lib/api-errors';
import { useSaveLanguage } from '../account-language';
import { useApplyTheme } from '../use-color-scheme-preference';
import { useUpdateMyPreferencesMutation } from '../users-endpoints';

const THEME_LABELS: Record<Preferences['theme'], MessageDescriptor> = {
  light: msg`Light`,
  dark: msg`Dark`,
  system: msg`System`,
};

type NotificationKey = keyof Preferences['notifications'];
const NOTIFICATION_CHOICES: {
  key: NotificationKey;
  label: MessageDescriptor;
  description: MessageDescriptor;
}[] = [
  {
    key: 'security_alerts',
    label: msg`Security alerts`,
    description: msg`Password changes, new sign-ins and license revocations.`,
  },
  {
    key: 'billing',
    label: msg`Billing and receipts`,
    description: msg`Receipts for your payments and reminders before a license ends.`,
  },
  {
    key: 'product_updates',
    label: msg`Product updates`,
    description: msg`New versions of the desktop app and new features.`,
  },
];

/**
 * Language, theme and e-mail choices (PUT /users/me/preferences), each saved as it changes. The
 * language and the theme are shown at once; a refused save puts the old value back.
 */
export function PreferencesCard({ preferences }: { preferences: Partial<Preferences> }) {
  const { t, i18n } = useLingui();
  const [updateMyPreferences] = useUpdateMyPreferencesMutation();
  const saveLanguage = useSaveLanguage();
  const applyTheme = useApplyTheme();
  const saved: Preferences = {
    ...defaultPreferences,
    ...preferences,
    notifications: { ...defaultPreferences.notifications, ...preferences.notifications },
  };
  // What is on screen: the saved values plus the change being saved.
  const [pending, setPending] = useState<Partial<Preferences> | null>(null);
  const [failure, setFailure] = useState<string>();
  const shown: Preferences = {
    ...saved,
    ...pending,
    notifications: { ...saved.notifications, ...pending?.notifications },
  };

  // Controls stay usable while a save runs (disabling them would drop the keyboard focus); only the
  // newest save clears what is pending, so quick changes never flicker back to older values.
  const latest = useRef(0);
  const save = async (change: UpdatePreferencesRequest, show: Partial<Preferences>, what: string) => {
    const call = ++latest.current;
    setFailure(undefined);
    setPending((previous) => ({
      ...previous,
      ...show,
      notifications: { ...saved.notifications, ...previous?.notifications, ...show.notifications },
    }));
    try {
      await updateMyPreferences(change).unwrap();
      showToast({ title: t`Preferences saved`, message: what });
    } catch (error) {
      if (change.theme) applyTheme(saved.theme);
      setFailure(failureMessage(error, userMessages.updatePreferencesFailed));
    } finally {
      if (call === latest.current) setPending(null);
    }
  };

  const changeTheme = (value: string) => {
    const theme = THEMES.find((item) => item === value);
    if (!theme || theme === shown.theme) return;
    applyTheme(theme);
    const themeName = i18n._(THEME_LABELS[theme]);
    void save({ theme }, { theme }, t`Theme: ${themeName}.`);
  };

  const changeNotification = (key: NotificationKey, on: boolean) => {
    const choice = NOTIFICATION_CHOICES.find((item) => item.key === key);
    const label = choice ? i18n._(choice.label) : key;
    void save(
      { notifications: { [key]: on } },
      { notifications: { ...shown.notifications, [key]: on } },
      on ? t`${label}: on.` : t`${label}: off.`,
    );
  };

  return (
    <SectionCard
      headingId="preferences-title"
      title={t`Preferences`}
      description={t`Saved to your account as you change them.`}
      gap="lg"
    >
      {failure ? (
        <Notice color="red" variant="light" icon={<AlertIcon size={20} />} role="alert" title={t`Not saved`}>
          {failure}
        </Notice>
      ) : null}
      <LanguageSelect label={t`Language`} onChange={(language) => void saveLanguage(language)} />
      <Radio.Group
        label={t`Theme`}
        description={t`System follows this device’s light or dark setting.`}
        value={shown.theme}
        onChange={changeTheme}
      >
        <Group gap="xl" mt="xs">
          {THEMES.map((theme) => (
            <Radio key={theme} value={theme} label={i18n._(THEME_LABELS[theme])} />
          ))}
        </Group>
      </Radio.Group>
      <Switch.Group
        label={t`E-mail notifications`}
        description={t`What we e-mail you besides messages you ask for.`}
        value={NOTIFICATION_CHOICES.filter((choice) => shown.notifications[choice.key]).map(
          (choice) => choice.key,
        )}
        onChange={(keys) => {
          const changed = NOTIFICATION_CHOICES.find(
            (choice) => keys.includes(choice.key) !== shown.notifications[choice.key],
          );
          if (changed) changeNotification(changed.key, keys.includes(changed.key));
        }}
      >
        <Stack gap="sm" mt="xs">
          {NOTIFICATION_CHOICES.map((choice) => (
            <Switch
              key={choice.key}
              value={choice.key}
              label={i18n._(choice.label)}
              description={i18n._(choice.description)}
            />
          ))}
        </Stack>
      </Switch.Group>
    </SectionCard>
  );
}
