import { lazy, Suspense } from 'react';
import { ColorSchemeToggle } from '../../components/layout/color-scheme-toggle';
import { loadAccountThemeToggle } from '../../features/users';

const AccountThemeToggle = lazy(() =>
  loadAccountThemeToggle().then((module) => ({ default: module.AccountThemeToggle })),
);

/** The signed-in header's theme switch: it saves to the account once its code is there, a local switch until then. */
export function HeaderThemeToggle() {
  return (
    <Suspense fallback={<ColorSchemeToggle />}>
      <AccountThemeToggle />
    </Suspense>
  );
}
