import { lazy, Suspense } from 'react';
import type { ErrorAlertProps } from './error-alert-view';

// Alerts only show after something failed, so Mantine's Alert (and its close button) is not part
// of the first download of the pages that may show one.
const ErrorAlertView = lazy(() => import('./error-alert-view'));

/** A red alert, announced to screen readers as it appears; its code loads when first shown. */
export function ErrorAlert(props: ErrorAlertProps) {
  return (
    <Suspense fallback={null}>
      <ErrorAlertView {...props} />
    </Suspense>
  );
}
