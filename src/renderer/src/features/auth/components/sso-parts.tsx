import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { AuthCard } from './auth-card';

/*
 * The sign-in page's single sign-on parts, shown once an address typed there turns out to sign in
 * through its organization's provider, or once the provider sent the person back. They stay out of
 * the page's first download, which is on a budget (tests/e2e/bundle-budget.test.ts).
 */

/** An address whose organization offers single sign-on: the way there, beside the password. */
export function SsoOffer({ starting, onContinue }: { starting: boolean; onContinue: () => void }) {
  return (
    <Stack gap="xs" role="status">
      <Text size="sm">
        <Trans>Your organization signs you in through its identity provider.</Trans>
      </Text>
      <Button variant="light" fullWidth loading={starting} onClick={onContinue}>
        <Trans>Continue with single sign-on</Trans>
      </Button>
    </Stack>
  );
}

/**
 * An address whose organization requires single sign-on: no password is asked (it would be
 * refused); the form's button continues at the provider. Platform administrators keep their
 * password (break-glass, logged by the server), so theirs can still be shown.
 */
export function SsoRequiredNote({ onUsePassword }: { onUsePassword: () => void }) {
  return (
    <Stack gap={6} role="status">
      <Text size="sm">
        <Trans>
          Your organization requires single sign-on for this address: you continue at its identity provider,
          without a password here.
        </Trans>
      </Text>
      <Anchor component="button" type="button" size="sm" ta="left" onClick={onUsePassword}>
        <Trans>Platform administrator? Sign in with your password</Trans>
      </Anchor>
    </Stack>
  );
}

/**
 * Back from the provider, signed in, but without a seat: said before going on, since the person
 * would otherwise find their licensed features missing with no reason given.
 */
export function SsoArrivalNotice({ message, onContinue }: { message: string; onContinue: () => void }) {
  const { t } = useLingui();
  return (
    <AuthCard title={t`Signed in without a seat`}>
      <Stack gap="md">
        <Alert color="yellow" variant="light" title={t`No seat is free`} role="status">
          {message}
        </Alert>
        {/* The one thing to do here: it takes the focus, so Enter goes on. */}
        <Button size="md" fullWidth onClick={onContinue} autoFocus>
          <Trans>Continue</Trans>
        </Button>
      </Stack>
    </AuthCard>
  );
}

/**
 * In the desktop app: the provider's sign-in opened in the system browser, and this window signs
 * in by itself once it ends there. The browser may have opened behind, or been closed: again.
 */
export function SsoInBrowser({
  message,
  starting,
  onAgain,
}: {
  message: string;
  starting: boolean;
  onAgain: () => void;
}) {
  const { t } = useLingui();
  return (
    <Alert color="blue" variant="light" title={t`Signing in through your browser`} role="status">
      <Stack gap="xs">
        <Text size="sm">{message}</Text>
        <Anchor component="button" type="button" size="sm" ta="left" disabled={starting} onClick={onAgain}>
          <Trans>Open the browser again</Trans>
        </Anchor>
      </Stack>
    </Alert>
  );
}

/** The parts as one default export: the sign-in page loads them through one lazy component. */
export default function SsoPart(
  props:
    | ({ part: 'offer' } & Parameters<typeof SsoOffer>[0])
    | ({ part: 'required' } & Parameters<typeof SsoRequiredNote>[0])
    | ({ part: 'arrival' } & Parameters<typeof SsoArrivalNotice>[0])
    | ({ part: 'browser' } & Parameters<typeof SsoInBrowser>[0]),
) {
  if (props.part === 'offer') return <SsoOffer {...props} />;
  if (props.part === 'required') return <SsoRequiredNote {...props} />;
  if (props.part === 'browser') return <SsoInBrowser {...props} />;
  return <SsoArrivalNotice {...props} />;
}
