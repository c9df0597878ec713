import { useLingui } from '@lingui/react/macro';
import { PublicLayout } from '../../components/layout/public-layout';
import { homeFor, selectIsAuthenticated, selectUserRole } from '../../features/auth';
import { useAppSelector } from '../../lib/store-hooks';
import { HeaderLanguageSelect } from './header-language-select';
import { HeaderThemeToggle } from './header-theme-toggle';

/**
 * The public pages' frame as the session sees it: a signed-in visitor is offered the way back in
 * ("Open dashboard", or "Open admin") instead of "Sign in" and "Create account", and the theme
 * switch saves to the account. The session is settled before any page renders, so nothing moves.
 */
export function PublicFrame() {
  const isAuthenticated = useAppSelector(selectIsAuthenticated);
  const role = useAppSelector(selectUserRole);
  const { t } = useLingui();
  if (!isAuthenticated) return <PublicLayout />;
  return (
    <PublicLayout
      home={{ to: homeFor(role), label: role === 'admin' ? t`Open admin` : t`Open dashboard` }}
      themeToggle={<HeaderThemeToggle />}
      languageSelect={<HeaderLanguageSelect />}
    />
  );
}
