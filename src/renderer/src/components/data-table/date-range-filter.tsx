import { Group, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DEFAULT_LABELS = { from: 'From', to: 'To' };

export interface DateRangeFilterProps {
  /** `YYYY-MM-DD` or ''. */
  from: string;
  to: string;
  /** Both bounds at once (one history entry); called only with a usable, ordered range. */
  onChange: (range: { from: string; to: string }) => void;
  /** The fields' labels, when the dates are of something in particular ("Created from"). */
  labels?: { from: string; to: string };
}

/**
 * "From" and "To" day pickers (the browser's own, keyboard usable). A range that ends before it
 * starts is shown as a mistake and not sent, so the list never turns into a 400.
 */
export function DateRangeFilter({ from, to, onChange, labels = DEFAULT_LABELS }: DateRangeFilterProps) {
  const [draft, setDraft] = useState({ from, to });
  useEffect(() => setDraft({ from, to }), [from, to]);
  const reversed = draft.from !== '' && draft.to !== '' && draft.from > draft.to;

  const change = (bound: 'from' | 'to', value: string) => {
    const next = { ...draft, [bound]: value };
    setDraft(next);
    const usable = value === '' || DAY.test(value);
    const ordered = next.from === '' || next.to === '' || next.from <= next.to;
    // Mending a reversed range applies the other bound too, which was held back until now.
    if (usable && ordered) onChange(next);
  };

  // One unit in the filter bar: the two fields wrap to a new row together, never one alone.
  return (
    <Group
      gap="sm"
      wrap="nowrap"
      align="flex-start"
      style={{ flex: '2 1 320px', minWidth: 0, maxWidth: 460 }}
    >
      <TextInput
        type="date"
        label={labels.from}
        value={draft.from}
        max={draft.to || undefined}
        onChange={(event) => change('from', event.currentTarget.value)}
        error={reversed ? `${labels.from} must be on or before ${labels.to}` : undefined}
        style={{ flex: '1 1 0', minWidth: 0 }}
      />
      <TextInput
        type="date"
        label={labels.to}
        value={draft.to}
        min={draft.from || undefined}
        onChange={(event) => change('to', event.currentTarget.value)}
        style={{ flex: '1 1 0', minWidth: 0 }}
      />
    </Group>
  );
}
