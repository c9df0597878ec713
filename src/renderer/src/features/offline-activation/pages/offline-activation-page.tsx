import { Alert, Button, Card, FileInput, List, Stack, Text, Title } from '@mantine/core';
import { DownloadIcon } from '../../../components/brand/icons';
import { ErrorAlert } from '../../../components/forms/error-alert';
import { PageHeader } from '../../../components/layout/page-header';
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

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** Uploading a request file: the seat is taken and the license file is offered for download. */
function ActivateMachine({ as }: { as: Uploader }) {
  const [upload, state] = useUploadOfflineActivationRequestMutation();
  const { file, problem, result, choose } = useOfflineFileUpload(
    (json) => upload({ as, file: json }).unwrap(),
    offlineActivationMessages.activateFailed,
  );

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="offline-activate-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="offline-activate-heading">
          Activate a machine
        </Title>
        <List type="ordered" size="sm" spacing={4}>
          <List.Item>
            In the app on the machine without network, follow “No network on this computer? Activate it by
            file” on its sign-in page and choose Save activation request.
          </List.Item>
          <List.Item>Bring the file here (a USB stick will do) and choose it below.</List.Item>
          <List.Item>
            Download the license file and import it in the app on that machine. It works offline until the
            date shown.
          </List.Item>
        </List>
        <FileInput
          label="Activation request file"
          description="The .activation-request.json file the app saved"
          placeholder="Choose a file"
          accept="application/json,.json"
          value={file}
          onChange={(chosen) => void choose(chosen)}
          disabled={state.isLoading}
          clearable
        />
        {problem ? <ErrorAlert title="This file was not accepted">{problem}</ErrorAlert> : null}
        {result ? (
          <Alert color="teal" variant="light" title={result.message} role="status">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">
                {result.device_name ?? 'The machine'} can work offline until{' '}
                {dateFormat.format(new Date(result.license_file.expires_at))}.
              </Text>
              <Button
                leftSection={<DownloadIcon size={18} />}
                onClick={() => downloadJson(result.file_name, result.license_file)}
              >
                Download license file
              </Button>
            </Stack>
          </Alert>
        ) : null}
      </Stack>
    </Card>
  );
}

/** Uploading a signed-out proof: the machine's seat is freed. */
function GiveSeatBack({ as }: { as: Uploader }) {
  const [upload, state] = useUploadOfflineDeactivationProofMutation();
  const { file, problem, result, choose } = useOfflineFileUpload(
    (json) => upload({ as, file: json }).unwrap(),
    offlineActivationMessages.deactivateFailed,
  );

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="offline-deactivate-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="offline-deactivate-heading">
          Give a machine’s seat back
        </Title>
        <Text size="sm">
          On the app’s “Activate this machine by file” screen, Sign out and save the proof makes the machine
          forget its license file and save a signed-out proof. Upload that proof here to free the seat for
          another machine.
        </Text>
        <FileInput
          label="Signed-out proof"
          description="The .signed-out.json file the app saved"
          placeholder="Choose a file"
          accept="application/json,.json"
          value={file}
          onChange={(chosen) => void choose(chosen)}
          disabled={state.isLoading}
          clearable
        />
        {problem ? <ErrorAlert title="This file was not accepted">{problem}</ErrorAlert> : null}
        {result ? (
          <Alert color="teal" variant="light" title={result.message} role="status">
            <Text size="sm">{result.device_name ?? 'The machine'} no longer holds a seat.</Text>
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
  const as: Uploader = useAppSelector(selectUserRole) === 'admin' ? 'admin' : 'customer';
  return (
    <Stack gap="lg">
      <PageHeader
        title="Offline activation"
        description={
          as === 'admin'
            ? 'Activate a machine that never goes online on any license, or free its seat, from the files its app wrote. The seat is the license owner’s.'
            : 'Activate a machine that never goes online, or free its seat, from the files its app wrote.'
        }
      />
      <ActivateMachine as={as} />
      <GiveSeatBack as={as} />
    </Stack>
  );
}
