import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { loadStepUpHost } from '../../features/users';
import { PageLoading } from '../loading-screens';

// The step-up dialog: asks for the password or a code when a sensitive change needs a recent sign-in.
const StepUpHost = lazy(loadStepUpHost);

// The signed-in shell (AppShell, menus and their positioning library) is only needed after
// sign-in, so it stays out of the first download of /landing and /login.
const AppShellLayout = lazy(() =>
  import('./app-shell-layout').then((module) => ({ default: module.AppShellLayout })),
);

/**
 * Layout route of every signed-in screen: the shell with its navbar, header and user menu.
 *
 * Once entered, it starts the step-up dialog's download and, through `warm`, those of the area's
 * first screen (its slices, its screens' table, the screen itself) beside the shell's: left to the
 * lazy parts, each starts only once the part around it has arrived and rendered, five downloads
 * one after another between a sign-in and the dashboard.
 */
export function AppLayout({ warm }: { warm?: (pathname: string) => void }) {
  const [firstPath] = useState(useLocation().pathname);
  useEffect(() => {
    loadStepUpHost().catch(() => undefined);
    warm?.(firstPath);
  }, [warm, firstPath]);
  return (
    <Suspense fallback={<PageLoading />}>
      <AppShellLayout />
      <StepUpHost />
    </Suspense>
  );
}
