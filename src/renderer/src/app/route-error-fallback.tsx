import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useRouteError } from 'react-router-dom';
import { renderErrorMessages } from '../../../shared/messages';
import { useEffect } from 'react';

/** SPEC §2 fallback screen, shown when a route fails to render (or its page fails to load). */
export function RouteErrorFallback({ onReload }: { onReload: () => void }) {
  const error = useRouteError();
  useEffect(() => {
    console.error('Route render failed', error);
  }, [error]);
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" maw={520} ta="center" role="alert">
        <Title order={1}>{renderErrorMessages.title}</Title>
        <Text>{renderErrorMessages.text}</Text>
        <Button onClick={onReload}>{renderErrorMessages.refreshButton}</Button>
      </Stack>
    </Center>
  );
}
