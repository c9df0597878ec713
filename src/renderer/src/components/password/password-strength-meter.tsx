import { Box, Group, Progress, Text } from '@mantine/core';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../../shared/constants';
import { AlertIcon, CheckIcon, CrossIcon } from '../brand/icons';
import { estimatePasswordStrength, type StrengthScore } from './password-strength';
import classes from './password-strength-meter.module.css';

/** Segment colours, chosen for 3:1 against both the light and the dark card. */
const SCORE_COLORS: Record<StrengthScore, string> = { 0: 'red.7', 1: 'orange.7', 2: 'teal.7', 3: 'green.7' };
const SEGMENTS = 4;

interface PasswordStrengthMeterProps {
  password: string;
  /** The account's e-mail, for the "not your email" rule; leave out where it is unknown. */
  email?: string;
}

function Rule({ state, children }: { state: 'met' | 'unmet' | 'pending'; children: React.ReactNode }) {
  const Icon = state === 'met' ? CheckIcon : state === 'unmet' ? CrossIcon : AlertIcon;
  const status = state === 'met' ? 'Met: ' : state === 'unmet' ? 'Not met: ' : '';
  return (
    <li className={classes.rule} data-state={state}>
      <Icon size={14} className={classes.icon} />
      <Text component="span" size="xs">
        <span className={classes.hidden}>{status}</span>
        {children}
      </Text>
    </li>
  );
}

/**
 * Strength bar plus the server's rules for new passwords, shown before anyone submits. The bar
 * is advice; the rules say plainly that the server checks the common-password list itself.
 */
export function PasswordStrengthMeter({ password, email }: PasswordStrengthMeterProps) {
  const strength = estimatePasswordStrength(password, email);
  const typed = password.length > 0;
  return (
    <Box mt={6}>
      <Group gap={4} grow aria-hidden="true">
        {Array.from({ length: SEGMENTS }, (_, index) => (
          <Progress
            key={index}
            size={5}
            radius="xl"
            value={typed && index <= strength.score ? 100 : 0}
            color={SCORE_COLORS[strength.score]}
            transitionDuration={150}
          />
        ))}
      </Group>
      <Text size="xs" mt={6} aria-live="polite" c={typed ? undefined : 'dimmed'}>
        {typed ? (
          <>
            Strength: <strong>{strength.label}</strong>
          </>
        ) : (
          'Use a long phrase only you would think of.'
        )}
      </Text>
      <ul className={classes.rules} aria-label="Rules for a new password">
        <Rule state={!typed ? 'pending' : strength.lengthOk ? 'met' : 'unmet'}>
          {PASSWORD_MIN_LENGTH} to {PASSWORD_MAX_LENGTH} characters
        </Rule>
        {email !== undefined && (
          <Rule state={!typed || email === '' ? 'pending' : strength.notEmail ? 'met' : 'unmet'}>
            Not your email address
          </Rule>
        )}
        <Rule state={typed && strength.obviouslyCommon ? 'unmet' : 'pending'}>
          Not a common password (the server checks its list when you submit)
        </Rule>
      </ul>
    </Box>
  );
}
