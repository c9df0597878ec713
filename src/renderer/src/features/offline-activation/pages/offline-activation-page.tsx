import type { OfflineActivationResult } from '../../../../../shared/api/offline-activation';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Card, FileInput, List, Stack, Text, Title } from '@mantine/core';
import { DownloadIcon } from '../../../components/brand/icons';
import { ErrorAlert } from '../../../components/forms/error-alert';
import { PageHeader } from '../../../components/layout/page-header';
import { formatDate } from '../../../lib/format-date';
import { useAppSelector } from '../../../lib/store-hooks';
import { selectUserRole } from '../../auth';
import {
  offlineActivationMessages,
  type Uploader,
  useUploadOfflineActivationRequestMutation,
  useUploadOfflineDeactivationProofMutation,
} from '../offline-activation-endpoints';
import { downloadJson } from '../read-offline-file';
import { useOfflineFileUpload } from '../use-offline-file-upload';

/** "Lab PC can work offline until 1 Jun 2026.": what the license file lets the machine do. */
function OfflineUntil({ result }: { result: OfflineActivationResult }) {
  const { t } = useLingui();
  const name = result.device_name;
  const until = formatDate(result.license_file.expires_at);
  return (
    <Text size="sm">
      {name === null
        ? t`The machine can work offline until ${until}.`
        : t`${name} can work offline until ${until}.`}
    </Text>
  );
}

/** Uploading a request file: the seat is taken and the license file is offered for download. */
function ActivateMachine({ as }: { as: Uploader }) {
  const { t } = useLingui();
  const [upload, state] = useUploadOfflineActivationRequestMutation();
  const { file, problem, result, choose } = useOfflineFileUpload(
    (json) => upload({ as, file: json }).unwrap(),
    offlineActivationMessages.activateFailed,
  );

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="offline-activate-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="offline-activate-heading">
          <Trans>Activate a machine</Trans>
        </Title>
        <List type="ordered" size="sm" spacing={4}>
          <List.Item>
            <Trans>
              In the app on the machine without network, follow “No network on this computer? Activate it by
              file” on its sign-in page and choose Save activation request.
            </Trans>
          </List.Item>
          <List.Item>
            <Trans>Bring the file here (a USB stick will do) and choose it below.</Trans>
          </List.Item>
          <List.Item>
            <Trans>
              Download the license file and import it in the app on that machine. It works offline until the
              date shown.
            </Trans>
          </List.Item>
        </List>
        <FileInput
          label={t`Activation request file`}
          description={t`The .activation-request.json file the app saved`}
          placeholder={t`Choose a file`}
          accept="application/json,.json"
          value={file}
          onChange={(chosen) => void choose(chosen)}
          disabled={state.isLoading}
          clearable
        />
        {problem ? <ErrorAlert title={t`This file was not accepted`}>{problem}</ErrorAlert> : null}
        {result ? (
          <Alert color="teal" variant="light" title={result.message} role="status">
            <Stack gap="xs" align="flex-start">
              <OfflineUntil result={result} />
              <Button
                leftSection={<DownloadIcon size={18} />}
                onClick={() => downloadJson(result.file_name, result.license_file)}
              >
                <Trans>Download license file</Trans>
              </Button>
            </Stack>
          </Alert>
        ) : null}
      </Stack>
    </Card>
  );
}

/** "Lab PC no longer holds a seat.": the proof was taken. */
function NoLongerHoldsSeat({ name }: { name: string | null }) {
  const { t } = useLingui();
  return (
    <Text size="sm">
      {name === null ? t`The machine no longer holds a seat.` : t`${name} no longer holds a seat.`}
    </Text>
  );
}

/** Uploading a signed-out proof: the machine's seat is freed. */
function GiveSeatBack({ as }: { as: Uploader }) {
  const { t } = useLingui();
  const [upload, state] = useUploadOfflineDeactivationProofMutation();
  const { file, problem, result, choose } = useOfflineFileUpload(
    (json) => upload({ as, file: json }).unwrap(),
    offlineActivationMessages.deactivateFailed,
  );

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="offline-deactivate-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="offline-deactivate-heading">
          <Trans>Give a machine’s seat back</Trans>
        </Title>
        <Text size="sm">
          <Trans>
            On the app’s “Activate this machine by file” screen, Sign out and save the proof makes the machine
            forget its license file and save a signed-out proof. Upload that proof here to free the seat for
            another machine.
          </Trans>
        </Text>
        <FileInput
          label={t`Signed-out proof`}
          description={t`The .signed-out.json file the app saved`}
          placeholder={t`Choose a file`}
          accept="application/json,.json"
          value={file}
          onChange={(chosen) => void choose(chosen)}
          disabled={state.isLoading}
          clearable
        />
        {problem ? <ErrorAlert title={t`This file was not accepted`}>{problem}</ErrorAlert> : null}
        {result ? (
          <Alert color="teal" variant="light" title={result.message} role="status">
            <NoLongerHoldsSeat name={result.device_name} />
          </Alert>
        ) : null}
      </Stack>
    </Card>
  );
}

/**
 * /offline-activation (customers, for their own licenses) and /admin/offline-activation
 * (administrators, for any license): activation and deactivation by file for machines that never
 * go online.
 */
export default function OfflineActivationPage() {
  const { t } = useLingui();
  const as: Uploader = useAppSelector(selectUserRole) === 'admin' ? 'admin' : 'customer';
  return (
    <Stack gap="lg">
      <PageHeader
        title={t`Offline activation`}
        description={
          as === 'admin'
            ? t`Activate a machine that never goes online on any license, or free its seat, from the files its app wrote. The seat is the license owner’s.`
            : t`Activate a machine that never goes online, or free its seat, from the files its app wrote.`
        }
      />
      <ActivateMachine as={as} />
      <GiveSeatBack as={as} />
    </Stack>
  );
}
