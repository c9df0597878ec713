import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { unreachableMessages } from '../../../shared/messages';
import { serverAnswers, watchUntilReachable } from '../lib/server-reachability';

export interface ServerUnreachableProps {
  /** What to do once the server answers (load the screen again). */
  onBack: () => void;
  /** The health check (a test's); the server's `/health` by default. */
  probe?: () => Promise<boolean>;
}

/**
 * "Can't reach the server": a screen that could not be loaded because the server did not answer.
 * It checks again by itself (and when the browser is back online), and "Try again" checks now.
 */
export function ServerUnreachable({ onBack, probe = () => serverAnswers() }: ServerUnreachableProps) {
  const [checking, setChecking] = useState(false);
  const [stillAway, setStillAway] = useState(false);

  useEffect(() => {
    const watch = watchUntilReachable({ onBack, probe });
    return () => watch.stop();
  }, [onBack, probe]);

  const retry = async () => {
    setChecking(true);
    const back = await probe();
    setChecking(false);
    if (back) onBack();
    else setStillAway(true);
  };

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
