import { lazy, Suspense } from 'react';
import { loadStepUpHost } from '../../features/users';
import { PageLoading } from '../loading-screens';

// The step-up dialog: asks for the password or a code when a sensitive change needs a recent sign-in.
const StepUpHost = lazy(loadStepUpHost);

// The signed-in shell (AppShell, menus and their positioning library) is only needed after
// sign-in, so it stays out of the first download of /landing and /login.
const AppShellLayout = lazy(() =>
  import('./app-shell-layout').then((module) => ({ default: module.AppShellLayout })),
);

/** Layout route of every signed-in screen: the shell with its navbar, header and user menu. */
export function AppLayout() {
  return (
    <Suspense fallback={<PageLoading />}>
      <AppShellLayout />
      <StepUpHost />
    </Suspense>
  );
}
