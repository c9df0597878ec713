import { useLingui } from '@lingui/react/macro';
import { Group } from '@mantine/core';
import { useEffect, useState } from 'react';
import { DayInput } from '../forms/day-input';

export interface DateRangeFilterProps {
  /** `YYYY-MM-DD` or ''. */
  from: string;
  to: string;
  /** Both bounds at once (one history entry); called only with a usable, ordered range. */
  onChange: (range: { from: string; to: string }) => void;
  /** The fields' labels, when the dates are of something in particular ("Created from"). */
  labels?: { from: string; to: string };
}

/** Says a range ends before it starts, in the fields' own words. */
function ReversedRange({ labels }: { labels: { from: string; to: string } }) {
  const { t } = useLingui();
  const from = labels.from;
  const to = labels.to;
  return t`${from} must be on or before ${to}`;
}

/**
 * "From" and "To" day fields, written as the portal writes dates (typed, or picked in a
 * calendar; each gives `YYYY-MM-DD` or '' for no bound). A range that ends before it
 * starts is shown as a mistake and not sent, so the list never turns into a 400.
 */
export function DateRangeFilter({ from, to, onChange, labels: named }: DateRangeFilterProps) {
  const { t } = useLingui();
  const labels = named ?? { from: t`From`, to: t`To` };
  const [draft, setDraft] = useState({ from, to });
  useEffect(() => setDraft({ from, to }), [from, to]);
  const reversed = draft.from !== '' && draft.to !== '' && draft.from > draft.to;

  const change = (bound: 'from' | 'to', value: string) => {
    const next = { ...draft, [bound]: value };
    setDraft(next);
    const ordered = next.from === '' || next.to === '' || next.from <= next.to;
    // Mending a reversed range applies the other bound too, which was held back until now.
    if (ordered) onChange(next);
  };

  // One unit in the filter bar: the two fields wrap to a new row together, never one alone, and
  // are the size of the bar's other filters.
  return (
    <Group
      gap="sm"
      wrap="nowrap"
      align="flex-start"
      style={{ flex: '2 1 320px', minWidth: 0, maxWidth: 460 }}
    >
      <DayInput
        size="md"
        label={labels.from}
        value={draft.from}
        openOn={draft.to}
        clearable
        onChange={(day) => change('from', day)}
        error={reversed ? <ReversedRange labels={labels} /> : undefined}
        style={{ flex: '1 1 0', minWidth: 0 }}
      />
      <DayInput
        size="md"
        label={labels.to}
        value={draft.to}
        openOn={draft.from}
        clearable
        onChange={(day) => change('to', day)}
        style={{ flex: '1 1 0', minWidth: 0 }}
      />
    </Group>
  );
}
