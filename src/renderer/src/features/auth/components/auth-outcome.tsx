import { Trans } from '@lingui/react/macro';
import { Anchor, Button, Stack, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { portalPaths } from '../../../../../shared/routes';
import { AlertIcon, CheckIcon, MailIcon } from '../../../components/brand/icons';
import { AuthCard } from './auth-card';

const TONES = {
  mail: { Icon: MailIcon, color: undefined, role: 'status' },
  done: { Icon: CheckIcon, color: 'teal', role: 'status' },
  problem: { Icon: AlertIcon, color: 'red', role: 'alert' },
} as const;

interface AuthOutcomeProps {
  title: string;
  /** A mail was sent, the step is done, or a problem to announce at once. */
  tone: keyof typeof TONES;
  message: ReactNode;
  /** What the user can do next, under the message. */
  children?: ReactNode;
  footer?: ReactNode;
}

/** Where a sign-in, registration or recovery step ends: an icon, the outcome's words and what comes next. */
export function AuthOutcome({ title, tone, message, children, footer }: AuthOutcomeProps) {
  const { Icon, color, role } = TONES[tone];
  return (
    <AuthCard title={title} footer={footer}>
      <Stack gap="md">
        <ThemeIcon size={48} radius="xl" variant="light" color={color}>
          <Icon size={26} />
        </ThemeIcon>
        <Text role={role}>{message}</Text>
        {children}
      </Stack>
    </AuthCard>
  );
}

/**
 * The way back to the sign-in page, as a footer link; `to` keeps where the visitor was going (a
 * `next`), `email` the address they typed.
 */
export function SignInLink({
  children,
  to = portalPaths.login,
  email,
}: {
  children: ReactNode;
  to?: string;
  email?: string;
}) {
  return (
    <Anchor component={Link} to={to} state={email ? { email } : undefined} fw={600}>
      {children}
    </Anchor>
  );
}

/** The step is done: sign in now. */
export function SignInButton() {
  return (
    <Button component={Link} to={portalPaths.login} size="md">
      <Trans>Sign in</Trans>
    </Button>
  );
}
