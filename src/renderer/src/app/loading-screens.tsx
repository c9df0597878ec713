import { Trans } from '@lingui/react/macro';
import { Center, Loader, Stack, Text } from '@mantine/core';

/** The full-screen spinner while the session initialises. */
export function SessionSpinner() {
  return (
    <Center h="100vh" role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader />
        <Text>
          {/* SPEC's words in English. */}
          <Trans>Initializing secure session...</Trans>
        </Text>
      </Stack>
    </Center>
  );
}

/** 'Loading...': the placeholder while a lazily loaded screen arrives (layouts may spot it by its data attribute). */
export function PageLoading() {
  return (
    <Center mih="40vh" role="status" data-page-loading="">
      <Text>
        <Trans>Loading...</Trans>
      </Text>
    </Center>
  );
}
