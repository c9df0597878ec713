import { Trans } from '@lingui/react/macro';
import { Button, Group, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { type ReactNode, useEffect, useState } from 'react';
import classes from './data-table.module.css';

/** The width of a filter that shares a row with another on a phone (the toolbar's gap is 12 px). */
export const HALF_ROW = 'calc(50% - 6px)';

export interface ListToolbarProps {
  /** The search field's label, e.g. "Search users". */
  searchLabel: string;
  searchPlaceholder?: string;
  search: string;
  onSearch: (search: string) => void;
  /** Filter controls (selects, date inputs), each with its own label. */
  children?: ReactNode;
  /** Shown when anything is filtered: back to the plain list. */
  onReset?: () => void;
  filtered: boolean;
}

/** Search (sent 300 ms after the last key, or at once on Enter) and the list's filters. */
export function ListToolbar({
  searchLabel,
  searchPlaceholder,
  search,
  onSearch,
  children,
  onReset,
  filtered,
}: ListToolbarProps) {
  const [text, setText] = useState(search);
  // The URL is the source of truth: Back, a shared link or "Clear filters" change the field too.
  useEffect(() => setText(search), [search]);
  const send = useDebouncedCallback((value: string) => onSearch(value), 300);

  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <TextInput
        type="search"
        label={searchLabel}
        placeholder={searchPlaceholder}
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          send(event.currentTarget.value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            send.cancel();
            onSearch(text);
          }
        }}
        className={classes.search}
        maxLength={200}
      />
      {children}
      {filtered && onReset && (
        <Button variant="subtle" onClick={onReset}>
          <Trans>Clear filters</Trans>
        </Button>
      )}
    </Group>
  );
}
