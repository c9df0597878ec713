import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, CopyButton, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { PRODUCT_NAME } from '../../../../../shared/constants';

/** Saves the codes as a text file the browser downloads. */
function download(codes: readonly string[]) {
  const text = `${PRODUCT_NAME} recovery codes\nEach signs in once when your authenticator app is not at hand.\n\n${codes.join('\n')}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'recovery-codes.txt';
  link.click();
  URL.revokeObjectURL(url);
}

/** Ten new recovery codes, shown this once: copy or download them, then confirm they are kept. */
export function RecoveryCodesPanel({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const { t } = useLingui();
  return (
    <Stack gap="sm">
      <Alert color="yellow" variant="light" title={t`Save your recovery codes now`}>
        <Trans>
          Each code signs you in once if you lose your phone. They are shown only this once: keep them
          somewhere safe, such as a password manager.
        </Trans>
      </Alert>
      <SimpleGrid
        cols={{ base: 1, xs: 2 }}
        spacing="xs"
        component="ol"
        aria-label={t`Recovery codes`}
        data-testid="recovery-codes"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {codes.map((code) => (
          <Text key={code} component="li" ff="monospace" size="md">
            {code}
          </Text>
        ))}
      </SimpleGrid>
      <Group gap="sm">
        <CopyButton value={codes.join('\n')}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? t`Copied` : t`Copy codes`}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" onClick={() => download(codes)}>
          <Trans>Download</Trans>
        </Button>
        <Button onClick={onDone}>
          <Trans>I have saved them</Trans>
        </Button>
      </Group>
    </Stack>
  );
}
