import { useLingui } from '@lingui/react/macro';
import { Loader } from '@mantine/core';
import { Navigate, Outlet } from 'react-router-dom';
import { portalPaths } from '../../../../../shared/routes';
import { useGetTwoFactorStatusQuery } from './two-factor-endpoints';

/**
 * The admin screens when the platform requires two-factor of administrators: one without a
 * second factor goes to /profile/security to enrol first (the server refuses them the admin API
 * meanwhile, 403 two_factor_enrolment_required).
 */
export default function TwoFactorEnrolmentCheck() {
  const { t } = useLingui();
  const status = useGetTwoFactorStatusQuery(undefined, { refetchOnMountOrArgChange: 30 });
  if (status.isLoading) return <Loader size="sm" m="xl" aria-label={t`Loading`} />;
  const current = status.data;
  if (current?.required && !current.totp_enabled && current.passkeys === 0)
    return <Navigate to={portalPaths.profileSecurity} replace />;
  return <Outlet />;
}
