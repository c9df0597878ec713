import { useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { PSEUDO_LANGUAGE, portalLanguageOf, type PortalLanguage } from '../../../../shared/languages';
import { userMessages } from '../../../../shared/screen-messages';
import { showToast } from '../../components/data/toast';
import { LanguageSelect } from '../../components/layout/language-select';
import { failureMessage } from '../../lib/api-errors';
import { showLanguage, shownLanguage } from '../../lib/i18n/portal-i18n';
import { useAppSelector } from '../../lib/store-hooks';
import { useUpdateMyPreferencesMutation } from './users-endpoints';
import { selectPreferences } from './user-slice';

/**
 * Shows the portal in the account's language once it is known (sign-in, a restored session, a
 * save elsewhere): the account's `language` preference wins over this browser's. The pseudo-locale,
 * which tests choose in the browser, is left alone.
 */
export function useAccountLanguage(): void {
  const preferred = useAppSelector(selectPreferences).language;
  useEffect(() => {
    if (!preferred || shownLanguage() === PSEUDO_LANGUAGE) return;
    void showLanguage(portalLanguageOf([preferred]));
  }, [preferred]);
}

/** Saves a chosen language to the account, shown at once; a refused save puts the saved one back. */
export function useSaveLanguage(): (language: PortalLanguage) => Promise<void> {
  const { t } = useLingui();
  const preferred = useAppSelector(selectPreferences).language;
  const [updateMyPreferences] = useUpdateMyPreferencesMutation();
  return async (language) => {
    await showLanguage(language);
    try {
      await updateMyPreferences({ language }).unwrap();
    } catch (error) {
      await showLanguage(portalLanguageOf([preferred]));
      showToast({
        title: t`Language not saved`,
        message: failureMessage(error, userMessages.updatePreferencesFailed),
        tone: 'error',
      });
    }
  };
}

/** The signed-in header's language switch: the account's language shown, a change saved to it. */
export function AccountLanguageSelect() {
  useAccountLanguage();
  const save = useSaveLanguage();
  return <LanguageSelect onChange={(language) => void save(language)} />;
}
