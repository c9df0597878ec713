import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { unreachableMessages } from '../../../shared/messages';
import { serverAnswers } from '../lib/server-reachability';

export interface ServerUnreachableProps {
  /** What to do once the server answers (load the screen again). */
  onBack: () => void;
  /** The health check (a test's); the server's `/health` by default. */
  probe?: () => Promise<boolean>;
}

/**
 * "Can't reach the server": a screen that could not be loaded because the server did not answer.
 * "Try again" checks the server and, when it answers, loads the screen; so does the browser coming
 * back online. (The watch with growing pauses stays with the API client, out of the first download.)
 */
export function ServerUnreachable({ onBack, probe = () => serverAnswers() }: ServerUnreachableProps) {
  const [checking, setChecking] = useState(false);
  const [stillAway, setStillAway] = useState(false);

  const retry = async () => {
    setChecking(true);
    const back = await probe();
    setChecking(false);
    if (back) onBack();
    else setStillAway(true);
  };
  const retryRef = useRef(retry);
  retryRef.current = retry;
  useEffect(() => {
    const online = () => void retryRef.current();
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, []);

  return (
    <Center mih="60vh" p="md">
      <Stack align="center" maw={520} ta="center" role="alert">
        <Title order={1}>{unreachableMessages.title}</Title>
        <Text>{unreachableMessages.text}</Text>
        {stillAway ? (
          <Text size="sm" c="dimmed" role="status">
            {unreachableMessages.stillUnreachable}
          </Text>
        ) : null}
        <Button onClick={() => void retry()} loading={checking}>
          {unreachableMessages.retryButton}
        </Button>
      </Stack>
    </Center>
  );
}
