import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Card, FileInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import type { OfflineFile } from '../../../../../shared/bridge';
import { portalPaths } from '../../../../../shared/routes';
import { ErrorAlert } from '../../../components/forms/error-alert';
import { failureMessage } from '../../../lib/api-errors';
import { knownText } from '../../../lib/i18n/portal-i18n';
import { onDesktop } from '../../../lib/on-desktop';
import {
  offlineActivationMessages,
  useImportOfflineLicenseFileMutation,
  useSignOutOfflineLicenseMutation,
  useWriteOfflineActivationRequestMutation,
} from '../offline-activation-endpoints';
import { downloadText, readOfflineFile } from '../read-offline-file';

/** Where the request was saved, and what to do with it. */
function SavedAs({ fileName }: { fileName: string }) {
  return (
    <Text size="sm" role="status">
      <Trans>
        Saved as {fileName}. Upload it under Offline activation in the portal from a device with network, then
        import the license file it gives you below.
      </Trans>
    </Text>
  );
}

/** Step 1: the request file for the key, saved where the user chooses. */
function WriteRequest() {
  const { t } = useLingui();
  const [write, state] = useWriteOfflineActivationRequestMutation();
  const [key, setKey] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<OfflineFile | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    try {
      const file = await write(key).unwrap();
      setSaved(file);
      downloadText(file.file_name, file.contents);
    } catch (error) {
      setProblem(failureMessage(error, offlineActivationMessages.requestFailed));
    }
  }

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="this-machine-request-heading">
      <form onSubmit={(event) => void submit(event)}>
        <Stack gap="sm">
          <Title order={2} size="h4" id="this-machine-request-heading">
            <Trans>1. Save an activation request</Trans>
          </Title>
          <TextInput
            label={t`License key`}
            value={key}
            onChange={(event) => setKey(event.currentTarget.value)}
            required
            autoComplete="off"
          />
          <Button type="submit" loading={state.isLoading} style={{ alignSelf: 'flex-start' }}>
            <Trans>Save activation request</Trans>
          </Button>
          {problem ? <ErrorAlert title={t`No request was written`}>{problem}</ErrorAlert> : null}
          {saved ? <SavedAs fileName={saved.file_name} /> : null}
        </Stack>
      </form>
    </Card>
  );
}

/** Step 2: the license file the portal answered. */
function ImportLicenseFile() {
  const { t } = useLingui();
  const [importFile, state] = useImportOfflineLicenseFileMutation();
  const [file, setFile] = useState<File | null>(null);
  const [outcome, setOutcome] = useState<{ imported: boolean; message: string } | null>(null);

  async function choose(chosen: File | null) {
    setFile(chosen);
    setOutcome(null);
    if (!chosen) return;
    const read = await readOfflineFile(chosen);
    if ('problem' in read) return setOutcome({ imported: false, message: read.problem });
    try {
      setOutcome(await importFile(JSON.stringify(read.json)).unwrap());
    } catch (error) {
      setOutcome({ imported: false, message: failureMessage(error, offlineActivationMessages.importFailed) });
    }
  }

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="this-machine-import-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="this-machine-import-heading">
          <Trans>2. Import the license file</Trans>
        </Title>
        <FileInput
          label={t`License file`}
          description={t`The .license.json file the portal gave for this machine`}
          placeholder={t`Choose a file`}
          accept="application/json,.json"
          value={file}
          onChange={(chosen) => void choose(chosen)}
          disabled={state.isLoading}
          clearable
        />
        {outcome && !outcome.imported ? (
          // Main's English (the file's problem, or what the license allows now), in the language shown.
          <ErrorAlert title={t`This license file was not imported`}>{knownText(outcome.message)}</ErrorAlert>
        ) : null}
        {outcome?.imported ? (
          <Alert color="teal" variant="light" title={t`This machine is activated`} role="status">
            {knownText(outcome.message)}
          </Alert>
        ) : null}
      </Stack>
    </Card>
  );
}

/** Step 3, when the machine is done: its seat back through the proof. */
function SignOut() {
  const { t } = useLingui();
  const [signOut, state] = useSignOutOfflineLicenseMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const [proof, setProof] = useState<OfflineFile | null | undefined>(undefined);
  const proofName = proof?.file_name;

  async function run() {
    setProblem(null);
    try {
      const file = await signOut().unwrap();
      setProof(file);
      if (file) downloadText(file.file_name, file.contents);
    } catch (error) {
      setProblem(failureMessage(error, offlineActivationMessages.signOutFailed));
    }
  }

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="this-machine-sign-out-heading">
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h4" id="this-machine-sign-out-heading">
          <Trans>3. Sign out by file</Trans>
        </Title>
        <Text size="sm">
          <Trans>
            This machine forgets its license file and saves a signed-out proof. Upload the proof under Offline
            activation in the portal to free the seat.
          </Trans>
        </Text>
        <Button variant="default" onClick={() => void run()} loading={state.isLoading}>
          <Trans>Sign out and save the proof</Trans>
        </Button>
        {problem ? <ErrorAlert title={t`Not signed out`}>{problem}</ErrorAlert> : null}
        {proof ? (
          <Stack gap="xs" role="status">
            <Text size="sm">{t`Signed out. The proof was offered as ${proofName}.`}</Text>
            {/* The proof exists only here until it is saved: offered again in case the first save was cancelled. */}
            <Button variant="subtle" onClick={() => downloadText(proof.file_name, proof.contents)}>
              <Trans>Save the proof again</Trans>
            </Button>
          </Stack>
        ) : null}
        {proof === null ? (
          <Text size="sm" role="status">
            <Trans>This machine has no license file to sign out.</Trans>
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}

/**
 * /offline-activation/this-machine, open without signing in (a machine without network cannot
 * sign in): the desktop app's side of activation by file.
 */
export default function ThisMachineOfflinePage() {
  return (
    <Stack gap="lg" maw={720} mx="auto" w="100%">
      <Title order={1}>
        <Trans>Activate this machine by file</Trans>
      </Title>
      {onDesktop() ? (
        <>
          <Text>
            <Trans>
              For a computer without network: the files travel to a device with a browser and back.
            </Trans>
          </Text>
          <WriteRequest />
          <ImportLicenseFile />
          <SignOut />
        </>
      ) : (
        <Text>
          <Trans>
            This is done in the desktop app on the machine without network. To upload its files, sign in and
            open{' '}
            <Anchor component={Link} to={portalPaths.offlineActivation} underline="always">
              Offline activation
            </Anchor>
            .
          </Trans>
        </Text>
      )}
    </Stack>
  );
}
