import { Box, Group, Progress, Text } from '@mantine/core';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../../../shared/constants';
import { AlertIcon, CheckIcon, CrossIcon } from '../../../components/brand/icons';
import { type StrengthLevel, usePasswordStrength } from '../password-strength';
import classes from './password-strength-meter.module.css';

/** Segment colours, chosen for 3:1 against both the light and the dark card. */
const LEVEL_COLORS: Record<StrengthLevel, string> = { 0: 'red.7', 1: 'orange.7', 2: 'teal.7', 3: 'green.7' };
const SEGMENTS = 4;

interface PasswordStrengthMeterProps {
  password: string;
  /** The account's e-mail, for the rule that the password must not contain it; leave out where it is unknown. */
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
 * Strength bar plus the server's rules for new passwords, shown before anyone submits. The verdict
 * comes from the rule the server applies (zxcvbn's score and the e-mail rule), so what the meter
 * calls Weak or Fair the server refuses, with the same advice.
 */
export function PasswordStrengthMeter({ password, email }: PasswordStrengthMeterProps) {
  const strength = usePasswordStrength(password, email);
  const { verdict, level } = strength;
  const typed = password.length > 0;
  const scored = typed && verdict !== undefined;
  // zxcvbn's reason (the server's refusal gives it too) and its tips.
  const advice =
    scored && !verdict.hardToGuess ? [verdict.warning, ...verdict.suggestions].filter(Boolean).join(' ') : '';
  return (
    <Box mt={6}>
      <Group gap={4} grow aria-hidden="true">
        {Array.from({ length: SEGMENTS }, (_, index) => (
          <Progress
            key={index}
            size={5}
            radius="xl"
            value={scored && level !== undefined && index <= level ? 100 : 0}
            color={LEVEL_COLORS[level ?? 0]}
            transitionDuration={150}
          />
        ))}
      </Group>
      <Text size="xs" mt={6} aria-live="polite" c={typed ? undefined : 'dimmed'}>
        {!typed ? (
          'Use a long phrase only you would think of.'
        ) : scored ? (
          <>
            Strength: <strong>{strength.label}</strong>
          </>
        ) : (
          'Checking the strength…'
        )}
      </Text>
      {advice && (
        <Text size="xs" c="dimmed">
          {advice}
        </Text>
      )}
      <ul className={classes.rules} aria-label="Rules for a new password">
        <Rule state={!typed ? 'pending' : strength.lengthOk ? 'met' : 'unmet'}>
          {PASSWORD_MIN_LENGTH} to {PASSWORD_MAX_LENGTH} characters
        </Rule>
        {email !== undefined && (
          <Rule state={!typed || email === '' ? 'pending' : strength.containsEmail ? 'unmet' : 'met'}>
            Does not contain your e-mail address
          </Rule>
        )}
        <Rule state={!scored ? 'pending' : verdict.hardToGuess ? 'met' : 'unmet'}>
          Hard to guess: no common password, repeats, sequences or keyboard rows
        </Rule>
      </ul>
    </Box>
  );
}
