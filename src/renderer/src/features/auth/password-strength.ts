import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useEffect, useMemo, useState } from 'react';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../../shared/constants';
import { passwordContainsEmail } from '../../../../shared/password-email-rule';
import type * as PasswordRule from '../../../../shared/password-rule';
import type { NewPasswordVerdict, PasswordScore } from '../../../../shared/password-rule';

export type StrengthLevel = 0 | 1 | 2 | 3;

/** The meter's four steps, in the words shown (see `strengthLevelOf`). */
export const STRENGTH_LABELS: readonly MessageDescriptor[] = [msg`Weak`, msg`Fair`, msg`Good`, msg`Strong`];

/** zxcvbn's 0–4 on the meter's four steps: the scores the server accepts (3 and 4) are Good and Strong. */
export const strengthLevelOf = (score: PasswordScore): StrengthLevel =>
  Math.max(score - 1, 0) as StrengthLevel;

let loading: Promise<typeof PasswordRule> | undefined;
let loaded: typeof PasswordRule | undefined;

/**
 * The server's rule, fetched on first use: zxcvbn and its dictionaries are hundreds of KB, so only
 * the screens with a new-password field load them, never the landing or sign-in page.
 */
export function loadPasswordRule(): Promise<typeof PasswordRule> {
  loading ??= import('../../../../shared/password-rule').then(
    (rule) => (loaded = rule),
    (error: unknown) => {
      // A failed download (offline for a moment) is tried again by the next screen that asks.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

export interface PasswordStrength {
  /** The server's length rule (8–128 characters). */
  lengthOk: boolean;
  /** The password contains the account's e-mail address or its name before @. */
  containsEmail: boolean;
  /** The server's verdict; `undefined` while the rule is still loading. */
  verdict: NewPasswordVerdict | undefined;
  /** The meter's step and its name, once there is a verdict. */
  level: StrengthLevel | undefined;
  label: MessageDescriptor | undefined;
}

/**
 * How the server will judge this new password, for the meter beside the field. The length and
 * e-mail rules answer at once; the strength verdict follows when the rule has loaded (if it cannot
 * load, the meter says so no further and the server still decides on submit).
 */
export function usePasswordStrength(password: string, email = ''): PasswordStrength {
  const [rule, setRule] = useState(loaded);
  useEffect(() => {
    if (rule) return;
    let mounted = true;
    loadPasswordRule().then(
      (loadedRule) => mounted && setRule(loadedRule),
      () => undefined,
    );
    return () => {
      mounted = false;
    };
  }, [rule]);

  const length = [...password].length;
  const lengthOk = length >= PASSWORD_MIN_LENGTH && length <= PASSWORD_MAX_LENGTH;
  const containsEmail = passwordContainsEmail(password, email);
  // Typing in the other fields re-renders the meter too; scoring again would be wasted work.
  const verdict = useMemo(() => rule?.judgeNewPassword(password, email), [rule, password, email]);
  const level = verdict && (lengthOk ? strengthLevelOf(verdict.score) : 0);
  return {
    lengthOk,
    containsEmail,
    verdict,
    level,
    label: level === undefined ? undefined : STRENGTH_LABELS[level],
  };
}
