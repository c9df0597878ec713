import { lazy, Suspense } from 'react';
import { loadTwoFactorEnrolmentCheck } from '../features/users';
import { PageLoading } from './loading-screens';

const TwoFactorEnrolmentCheck = lazy(loadTwoFactorEnrolmentCheck);

/**
 * Admin screens: when the platform requires two-factor of administrators, one without a second
 * factor is sent to /profile/security to enrol before anything else. The check (and the
 * two-factor endpoints) load with the admin screens, not in the first download.
 */
export function RequireTwoFactorEnrolment() {
  return (
    <Suspense fallback={<PageLoading />}>
      <TwoFactorEnrolmentCheck />
    </Suspense>
  );
}
