import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Group, Progress, Text } from '@mantine/core';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../../../shared/constants';
import { AlertIcon, CheckIcon, CrossIcon } from '../../../components/brand/icons';
import { knownText } from '../../../lib/i18n/portal-i18n';
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
  const { t } = useLingui();
  const Icon = state === 'met' ? CheckIcon : state === 'unmet' ? CrossIcon : AlertIcon;
  // Said before the rule to a screen reader, which sees neither icon nor colour.
  const status = state === 'met' ? t`Met:` : state === 'unmet' ? t`Not met:` : '';
  return (
    <li className={classes.rule} data-state={state}>
      <Icon size={14} className={classes.icon} />
      <Text component="span" size="xs">
        <span className={classes.hidden}>{status && `${status} `}</span>
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
  const { t } = useLingui();
  const strength = usePasswordStrength(password, email);
  const { verdict, level } = strength;
  const label = strength.label && t(strength.label);
  const typed = password.length > 0;
  const [min, max] = [PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH];
  const scored = typed && verdict !== undefined;
  // zxcvbn's reason (the server's refusal gives it too) and its tips, in the language shown.
  const advice =
    scored && !verdict.hardToGuess
      ? [verdict.warning, ...verdict.suggestions]
          .filter((text): text is string => Boolean(text))
          .map(knownText)
          .join(' ')
      : '';
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
          t`Use a long phrase only you would think of.`
        ) : scored ? (
          <Trans>
            Strength: <strong>{label}</strong>
          </Trans>
        ) : (
          t`Checking the strength…`
        )}
      </Text>
      {advice && (
        <Text size="xs" c="dimmed">
          {advice}
        </Text>
      )}
      <ul className={classes.rules} aria-label={t`Rules for a new password`}>
        <Rule state={!typed ? 'pending' : strength.lengthOk ? 'met' : 'unmet'}>
          <Trans>
            {min} to {max} characters
          </Trans>
        </Rule>
        {email !== undefined && (
          <Rule state={!typed || email === '' ? 'pending' : strength.containsEmail ? 'unmet' : 'met'}>
            <Trans>Does not contain your e-mail address</Trans>
          </Rule>
        )}
        <Rule state={!scored ? 'pending' : verdict.hardToGuess ? 'met' : 'unmet'}>
          <Trans>Hard to guess: no common password, repeats, sequences or keyboard rows</Trans>
        </Rule>
      </ul>
    </Box>
  );
}
