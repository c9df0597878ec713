import { useLingui } from '@lingui/react/macro';
import { Loader, Select } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';

export interface RemoteOption {
  value: string;
  label: string;
}

/** The options matching a typed text (null: the field was never opened, nothing to search yet). */
export type UseRemoteOptions = (text: string | null) => { options: RemoteOption[]; loading: boolean };
/** The option of one id: undefined while it is being read, null when it could not be. */
export type UseRemoteOption = (id: string | null) => RemoteOption | null | undefined;

export interface RemoteSelectProps {
  label: string;
  /** Shown when nothing is picked (e.g. "Any user"). */
  placeholder: string;
  /** The picked id, or '' for none. */
  value: string;
  onChange: (value: string) => void;
  /** A query hook: the server searches, and answers at most a page of options. */
  useOptions: UseRemoteOptions;
  /** A query hook naming an id that came from the URL, so the field shows a name rather than an id. */
  useOption: UseRemoteOption;
  nothingFound: string;
  clearLabel: string;
  style?: React.CSSProperties;
}

/**
 * A filter whose choices live on the server (users, packages): typing searches (250 ms after the
 * last key), picking sets the id. Only one page of choices is ever loaded, so it stays fast with
 * thousands of rows.
 */
export function RemoteSelect({
  label,
  placeholder,
  value,
  onChange,
  useOptions,
  useOption,
  nothingFound,
  clearLabel,
  style,
}: RemoteSelectProps) {
  const [text, setText] = useState<string | null>(null);
  const [chosen, setChosen] = useState<RemoteOption | null>(null);
  const { t } = useLingui();
  const search = useDebouncedCallback((typed: string) => setText(typed), 250);
  const { options, loading } = useOptions(text);

  // An id from the URL (a shared link, Back) is shown by its name; one picked here is known.
  const known = chosen?.value === value ? chosen : null;
  const resolved = useOption(value && !known ? value : null);
  const picked = !value
    ? null
    : (known ?? (resolved === undefined ? null : (resolved ?? { value, label: value })));

  const data =
    picked && !options.some((option) => option.value === picked.value) ? [picked, ...options] : options;

  return (
    <Select
      size="md"
      label={label}
      placeholder={placeholder}
      searchable
      clearable
      value={value || null}
      data={data}
      // The server already filtered; Mantine must not filter its answer again by the typed text.
      filter={({ options: all }) => all}
      onDropdownOpen={() => search('')}
      onSearchChange={(typed) => {
        if (picked && typed === picked.label) return;
        search(typed);
      }}
      onChange={(id, option) => {
        setChosen(id && option ? { value: id, label: option.label } : null);
        onChange(id ?? '');
      }}
      nothingFoundMessage={loading ? t`Searching…` : nothingFound}
      rightSection={loading ? <Loader size="xs" /> : undefined}
      clearButtonProps={{ 'aria-label': clearLabel }}
      comboboxProps={{ withinPortal: true }}
      style={style}
    />
  );
}
