import { useLingui } from '@lingui/react/macro';
import '@mantine/dates/styles.layer.css';
import { DateInput, type DateInputProps } from '@mantine/dates';
import { useState } from 'react';
import { isPortalLanguage } from '../../../../shared/languages';
import { shownLanguage } from '../../lib/i18n/portal-i18n';
import { readersDayText } from './day-text';

/** The dayjs locale of the calendar: the language shown (the pseudo-locale's is English). */
const calendarLocale = (): string => {
  const language = shownLanguage();
  return isPortalLanguage(language) ? language : 'en';
};

export interface DayInputProps extends Omit<
  DateInputProps,
  'value' | 'defaultValue' | 'onChange' | 'valueFormat' | 'dateParser'
> {
  /** `YYYY-MM-DD`, or '' for no day. */
  value: string;
  /** `YYYY-MM-DD` once what is typed or picked is a whole, real day; '' when the field is cleared. */
  onChange: (day: string) => void;
  /** While the field is empty, its calendar opens on this day's month (a range's other end). */
  openOn?: string;
}

/** Today on the reader's calendar, `YYYY-MM-DD`. */
const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

/**
 * A field for one day, written as every other date in the portal (the reader's locale, medium
 * style: "Jan 31, 2025", "31 Jan 2025"), not the browser's numeric date input. Type the day in that
 * form, in the locale's numbers (1/31/2025, 31.01.2025) or as 2025-01-31, or pick it in the
 * calendar that opens under the field; what leaves it is always `YYYY-MM-DD`.
 */
export function DayInput({
  value,
  onChange,
  openOn,
  clearable,
  clearButtonProps,
  label,
  ...rest
}: DayInputProps) {
  // The month the calendar shows: the one browsed to, else the field's day, else `openOn`'s.
  const [shown, setShown] = useState<string>();
  // Subscribed to the language: the field's text and the calendar follow a change of it.
  const { t } = useLingui();
  const calendarLabels = {
    previousMonth: t`Previous month`,
    nextMonth: t`Next month`,
    previousYear: t`Previous year`,
    nextYear: t`Next year`,
    previousDecade: t`Previous decade`,
    nextDecade: t`Next decade`,
    monthLevelControl: t`Choose a month`,
    yearLevelControl: t`Choose a year`,
  };
  const fieldLabel = typeof label === 'string' ? label : undefined;
  return (
    <DateInput
      value={value === '' ? null : value}
      onChange={(day) => onChange(day ?? '')}
      date={shown ?? (value || openOn || today())}
      onDateChange={setShown}
      valueFormat={readersDayText.format}
      dateParser={readersDayText.parse}
      getDayAriaLabel={readersDayText.format}
      ariaLabels={calendarLabels}
      locale={calendarLocale()}
      label={label}
      clearable={clearable}
      clearButtonProps={{
        'aria-label': fieldLabel === undefined ? t`Clear the day` : t`Clear ${fieldLabel}`,
        ...clearButtonProps,
      }}
      {...rest}
    />
  );
}
