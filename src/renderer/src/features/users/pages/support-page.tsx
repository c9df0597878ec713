import { useLingui } from '@lingui/react/macro';
import { SimpleGrid, Stack } from '@mantine/core';
import { useMemo } from 'react';
import { HeaderedPage } from '../../../components/layout/page-header';
import { useAppSelector } from '../../../lib/store-hooks';
import { selectCurrentUser } from '../../auth';
import { LicenseTroubleshooter, useListMyLicensesQuery, useThisMachine } from '../../licenses';
import { ContactSupportCard } from '../components/contact-support-card';
import { HelpTopics } from '../components/help-topics';
import { MySupportRequestsCard } from '../components/my-support-requests-card';
import { SupportInfoCard } from '../components/support-info-card';
import { formatDetails, supportDetails } from '../support-details';
import { useFetchServerVersionQuery } from '../users-endpoints';

export default function SupportPage() {
  const { t } = useLingui();

  const user = useAppSelector(selectCurrentUser);
  // This machine and its license check, both read again on each visit and by 'Check license status'.
  const { machine: found, machineError, result: status, checking, checkedAt, checkAgain } = useThisMachine();
  const serverVersion = useFetchServerVersionQuery().data ?? null;
  // The account's licenses: a machine with no key says what the account has instead of "not configured".
  const licenses = useListMyLicensesQuery().data ?? null;
  const machineFailed = machineError !== null;

  const lines = useMemo(
    () =>
      found || machineFailed
        ? supportDetails({
            kind: found?.kind ?? 'web',
            appInfo: found?.appInfo ?? null,
            serverVersion,
            userAgent: navigator.userAgent,
            hardwareId: found?.hardwareId ?? null,
            licenseKey: found?.licenseKey ?? null,
            status,
            licenses,
            user: user ? { id: user.id, email: user.email } : null,
            now: new Date(checkedAt ?? Date.now()),
          })
        : null,
    [found, machineFailed, serverVersion, status, licenses, user, checkedAt],
  );

  return (
    <HeaderedPage
      size="xl"
      title={t`Support`}
      description={t`Answers to common questions, a check of this machine’s license, a way to reach us and your requests so far.`}
    >
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg" style={{ alignItems: 'start' }}>
        <Stack gap="lg">
          <HelpTopics />
          <LicenseTroubleshooter
            result={status}
            checking={checking}
            onCheck={checkAgain}
            kind={found?.kind ?? null}
            licenses={licenses}
          />
        </Stack>
        <Stack gap="lg">
          <SupportInfoCard lines={lines} />
          <MySupportRequestsCard />
          <ContactSupportCard details={lines ? formatDetails(lines) : null} />
        </Stack>
      </SimpleGrid>
    </HeaderedPage>
  );
}
