import { Loader, Select } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';

export interface RemoteOption {
  value: string;
  label: string;
}

export interface RemoteSelectProps {
  label: string;
  /** Shown when nothing is picked (e.g. "Any user"). */
  placeholder: string;
  /** The picked id, or '' for none. */
  value: string;
  onChange: (value: string) => void;
  /** The options matching what was typed (the server searches; at most a page of them). */
  search: (text: string) => Promise<RemoteOption[]>;
  /** The option of an id that came from the URL, so the field shows a name rather than an id. */
  resolve: (id: string) => Promise<RemoteOption | null>;
  nothingFound: string;
  clearLabel: string;
  style?: React.CSSProperties;
}

/**
 * A filter whose choices live on the server (users, packages): typing searches, picking sets the
 * id. Only one page of choices is ever loaded, so it stays fast with thousands of rows.
 */
export function RemoteSelect({
  label,
  placeholder,
  value,
  onChange,
  search,
  resolve,
  nothingFound,
  clearLabel,
  style,
}: RemoteSelectProps) {
  const [options, setOptions] = useState<RemoteOption[]>([]);
  const [picked, setPicked] = useState<RemoteOption | null>(null);
  const [loading, setLoading] = useState(false);
  const latest = useRef(0);

  const load = useDebouncedCallback((text: string) => {
    const request = ++latest.current;
    setLoading(true);
    search(text).then(
      (found) => {
        if (request !== latest.current) return;
        setOptions(found);
        setLoading(false);
      },
      () => {
        if (request !== latest.current) return;
        setOptions([]);
        setLoading(false);
      },
    );
  }, 250);

  // An id from the URL (a shared link, Back) is shown by its name.
  useEffect(() => {
    if (!value) return setPicked(null);
    if (picked?.value === value) return;
    let live = true;
    resolve(value).then(
      (option) => {
        if (live) setPicked(option ?? { value, label: value });
      },
      () => {
        if (live) setPicked({ value, label: value });
      },
    );
    return () => {
      live = false;
    };
  }, [value, picked, resolve]);

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
      onDropdownOpen={() => load('')}
      onSearchChange={(text) => {
        if (picked && text === picked.label) return;
        load(text);
      }}
      onChange={(id, option) => {
        setPicked(id && option ? { value: id, label: option.label } : null);
        onChange(id ?? '');
      }}
      nothingFoundMessage={loading ? 'Searching…' : nothingFound}
      rightSection={loading ? <Loader size="xs" /> : undefined}
      clearButtonProps={{ 'aria-label': clearLabel }}
      comboboxProps={{ withinPortal: true }}
      style={style}
    />
  );
}
