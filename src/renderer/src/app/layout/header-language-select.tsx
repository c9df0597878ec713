import { lazy, Suspense } from 'react';
import { LanguageSelect } from '../../components/layout/language-select';
import { loadAccountLanguageSelect } from '../../features/users';

const AccountLanguageSelect = lazy(() =>
  loadAccountLanguageSelect().then((module) => ({ default: module.AccountLanguageSelect })),
);

/** The signed-in header's language switch: it saves to the account once its code is there, a local switch until then. */
export function HeaderLanguageSelect() {
  return (
    <Suspense fallback={<LanguageSelect />}>
      <AccountLanguageSelect />
    </Suspense>
  );
}
