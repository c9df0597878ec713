import { useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import {
  LANGUAGE_NAMES,
  PORTAL_LANGUAGES,
  type PortalLanguage,
  isPortalLanguage,
} from '../../../../shared/languages';
import { showLanguage } from '../../lib/i18n/portal-i18n';
import classes from './language-select.module.css';

/**
 * The language switch: each language named in its own words, in a native select (a phone's own
 * picker, the keyboard's arrows). Without `onChange` the choice stays in this browser; signed in,
 * `onChange` shows it and saves it to the account.
 */
export function LanguageSelect({
  onChange,
  size = 'sm',
  label,
}: {
  onChange?: (language: PortalLanguage) => void;
  size?: 'xs' | 'sm';
  /** A visible label (Profile); the header's switch is named for screen readers only. */
  label?: string;
}) {
  const { i18n, t } = useLingui();
  const id = useId();
  const select = (
    <span className={classes.arrow}>
      <select
        id={id}
        className={size === 'xs' ? `${classes.select} ${classes.small}` : classes.select}
        aria-label={label ? undefined : t`Language`}
        value={isPortalLanguage(i18n.locale) ? i18n.locale : ''}
        onChange={(event) => {
          const language = event.currentTarget.value;
          if (!isPortalLanguage(language)) return;
          if (onChange) onChange(language);
          else void showLanguage(language);
        }}
      >
        {/* The pseudo-locale tests choose is no language of the list: nothing is selected then. */}
        {isPortalLanguage(i18n.locale) ? null : <option value="" disabled />}
        {PORTAL_LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </span>
  );
  if (!label) return select;
  return (
    <label htmlFor={id} className={classes.field}>
      {label}
      {select}
    </label>
  );
}
