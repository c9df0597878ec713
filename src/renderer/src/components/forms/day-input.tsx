import '@mantine/dates/styles.layer.css';
import { DateInput, type DateInputProps } from '@mantine/dates';
import { useState } from 'react';
import { readersDayText } from './day-text';

const CALENDAR_LABELS = {
  previousMonth: 'Previous month',
  nextMonth: 'Next month',
  previousYear: 'Previous year',
  nextYear: 'Next year',
  previousDecade: 'Previous decade',
  nextDecade: 'Next decade',
  monthLevelControl: 'Choose a month',
  yearLevelControl: 'Choose a year',
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
  return (
    <DateInput
      value={value === '' ? null : value}
      onChange={(day) => onChange(day ?? '')}
      date={shown ?? (value || openOn || today())}
      onDateChange={setShown}
      valueFormat={readersDayText.format}
      dateParser={readersDayText.parse}
      getDayAriaLabel={readersDayText.format}
      ariaLabels={CALENDAR_LABELS}
      label={label}
      clearable={clearable}
      clearButtonProps={{
        'aria-label': typeof label === 'string' ? `Clear ${label}` : 'Clear the day',
        ...clearButtonProps,
      }}
      {...rest}
    />
  );
}
