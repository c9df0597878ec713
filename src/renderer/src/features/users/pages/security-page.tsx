import { useLingui } from '@lingui/react/macro';
import { Stack } from '@mantine/core';
import { HeaderedPage } from '../../../components/layout/page-header';
import { ApiTokensSection } from '../api-tokens/api-tokens-section';
import { PasskeysSection } from '../passkeys/passkeys-section';
import { ActiveSessionsSection } from '../sessions/active-sessions-section';
import { useAppSelector } from '../../../lib/store-hooks';
import { selectUserRole } from '../../auth';
import { AdminTwoFactorPolicySection } from '../two-factor/admin-policy-section';
import { TwoFactorSection } from '../two-factor/two-factor-section';

/**
 * /profile/security: how the account signs in and what may act for it. Each part is a section of
 * its own, one line each below.
 */
export default function SecurityPage() {
  const { t } = useLingui();

  const isAdmin = useAppSelector(selectUserRole) === 'admin';
  return (
    <HeaderedPage
      size="lg"
      title={t`Security`}
      description={t`Where you are signed in, two-factor sign-in, passkeys and API tokens: how you sign in, and what may act for you.`}
    >
      <Stack gap="lg">
        <ActiveSessionsSection />
        <TwoFactorSection />
        {isAdmin ? <AdminTwoFactorPolicySection /> : null}
        <PasskeysSection />
        <ApiTokensSection />
      </Stack>
    </HeaderedPage>
  );
}
