import { useLingui } from '@lingui/react';
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Component, type ReactNode, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { renderErrorMessages, unreachableMessages } from '../../../shared/messages';
import { knownText } from '../lib/i18n/portal-i18n';
import { isUnreachable, serverAnswers } from '../lib/server-reachability';

/** A screen in place of a route's page: what happened, in words, and the one thing to do. */
function FailureScreen(props: { title: string; text: string; note?: string; action: ReactNode }) {
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" maw={520} ta="center" role="alert">
        <Title order={1}>{props.title}</Title>
        <Text>{props.text}</Text>
        {props.note ? (
          <Text size="sm" c="dimmed" role="status">
            {props.note}
          </Text>
        ) : null}
        {props.action}
      </Stack>
    </Center>
  );
}

/**
 * "Can't reach the server": a screen whose code could not be downloaded. "Try again" (and the
 * browser coming back online) checks the server's health and, when it answers, calls `onBack`.
 * The watch with growing pauses stays with the API client, out of the first download.
 */
export function ServerUnreachable({
  onBack,
  probe = serverAnswers,
}: {
  onBack: () => void;
  /** The health check (a test's); the server's `/health` by default. */
  probe?: () => Promise<boolean>;
}) {
  // Its words are SPEC's English, shown in the language chosen (and again when it changes).
  useLingui();
  const [checking, setChecking] = useState(false);
  const [stillAway, setStillAway] = useState(false);
  const retry = useRef(async () => undefined as void);
  retry.current = async () => {
    setChecking(true);
    const back = await probe();
    setChecking(false);
    if (back) onBack();
    else setStillAway(true);
  };
  useEffect(() => {
    const online = () => void retry.current();
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, []);
  return (
    <FailureScreen
      title={knownText(unreachableMessages.title)}
      text={knownText(unreachableMessages.text)}
      note={stillAway ? knownText(unreachableMessages.stillUnreachable) : undefined}
      action={
        <Button onClick={() => void retry.current()} loading={checking}>
          {knownText(unreachableMessages.retryButton)}
        </Button>
      }
    />
  );
}

/**
 * The 'Something went wrong' screen, shown when a route fails to render; a screen whose code could
 * not be downloaded (the server does not answer) says so instead, and loads again once it does.
 */
export function RouteErrorFallback({ error, onReload }: { error: unknown; onReload: () => void }) {
  useLingui();
  const unreachable = isUnreachable(error);
  useEffect(() => {
    if (unreachable) console.warn('Route could not be loaded: the server does not answer', error);
    else console.error('Route render failed', error);
  }, [error, unreachable]);
  // React keeps a lazy screen whose download failed as failed: the page is loaded again instead.
  if (unreachable) return <ServerUnreachable onBack={onReload} />;
  return (
    <FailureScreen
      title={knownText(renderErrorMessages.title)}
      text={knownText(renderErrorMessages.text)}
      action={<Button onClick={onReload}>{knownText(renderErrorMessages.refreshButton)}</Button>}
    />
  );
}

interface BoundaryProps {
  onReload: () => void;
  /** Changes on every navigation: a new visit renders the route again instead of the old failure. */
  resetKey: string;
  children: ReactNode;
}

interface BoundaryState {
  failure: { error: unknown } | null;
  resetKey: string;
}

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  constructor(props: BoundaryProps) {
    super(props);
    this.state = { failure: null, resetKey: props.resetKey };
  }

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failure: { error } };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): BoundaryState | null {
    return props.resetKey === state.resetKey ? null : { failure: null, resetKey: props.resetKey };
  }

  override render() {
    const { failure } = this.state;
    return failure ? (
      <RouteErrorFallback error={failure.error} onReload={this.props.onReload} />
    ) : (
      this.props.children
    );
  }
}

/**
 * What `errorElement` is in a data router, for the portal's `<BrowserRouter>` + `useRoutes`: a
 * render failure of `children` (or of its lazily loaded page) shows the fallback screen in its
 * place, and the next navigation tries again.
 */
export function RouteErrorBoundary({ onReload, children }: { onReload: () => void; children: ReactNode }) {
  const { key } = useLocation();
  return (
    <ErrorBoundary onReload={onReload} resetKey={key}>
      {children}
    </ErrorBoundary>
  );
}
