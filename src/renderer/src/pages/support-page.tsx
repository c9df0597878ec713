import { Container, SimpleGrid, Stack } from '@mantine/core';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { AppInfo } from '../../../shared/bridge';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { ContactSupportCard } from '../components/account/contact-support-card';
import { HelpTopics } from '../components/account/help-topics';
import { LicenseTroubleshooter } from '../components/account/license-troubleshooter';
import { PageHeader } from '../components/account/page-header';
import { SupportInfoCard } from '../components/account/support-info-card';
import { selectCurrentUser } from '../features/auth/auth-slice';
import { checkLicenseStatus, selectLicenseStatus } from '../features/license/license-slice';
import { loadThisMachine } from '../features/license/this-machine-card';
import { fetchServerVersion, formatDetails, supportDetails } from '../features/user/support-details';

/** What `loadThisMachine` reads of this machine (the platform adapter: web or desktop). */
interface Machine {
  kind: 'web' | 'desktop';
  hardwareId: string;
  licenseKey: string | null;
  appInfo: AppInfo | null;
}

export default function SupportPage() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectCurrentUser);
  const status = useAppSelector(selectLicenseStatus);
  const [machine, setMachine] = useState<Machine | null>(null);
  const [machineFailed, setMachineFailed] = useState(false);
  const [serverVersion, setServerVersion] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [checkedAt, setCheckedAt] = useState(() => new Date());

  const check = useCallback(async () => {
    setChecking(true);
    const [found] = await Promise.all([dispatch(loadThisMachine()), dispatch(checkLicenseStatus())]);
    if (loadThisMachine.fulfilled.match(found)) setMachine(found.payload);
    else setMachineFailed(true);
    setCheckedAt(new Date());
    setChecking(false);
  }, [dispatch]);

  useEffect(() => {
    void check();
    let current = true;
    fetchServerVersion().then(
      (version) => current && setServerVersion(version),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [check]);

  const lines = useMemo(
    () =>
      machine || machineFailed
        ? supportDetails({
            kind: machine?.kind ?? 'web',
            appInfo: machine?.appInfo ?? null,
            serverVersion,
            userAgent: navigator.userAgent,
            hardwareId: machine?.hardwareId ?? null,
            licenseKey: machine?.licenseKey ?? null,
            status,
            user: user ? { id: user.id, email: user.email } : null,
            now: checkedAt,
          })
        : null,
    [machine, machineFailed, serverVersion, status, user, checkedAt],
  );

  return (
    <Container size="xl" px={0}>
      <Stack gap="xl">
        <PageHeader
          title="Support"
          description="Answers to common questions, a check of this machine’s license, and a way to reach us."
        />
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg" style={{ alignItems: 'start' }}>
          <Stack gap="lg">
            <HelpTopics />
            <LicenseTroubleshooter
              result={status}
              checking={checking}
              onCheck={() => void check()}
              kind={machine?.kind ?? null}
            />
          </Stack>
          <Stack gap="lg">
            <SupportInfoCard lines={lines} />
            <ContactSupportCard details={lines ? formatDetails(lines) : null} />
          </Stack>
        </SimpleGrid>
      </Stack>
    </Container>
  );
}
