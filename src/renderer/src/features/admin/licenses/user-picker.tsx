import { Loader, Select, type SelectProps } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import type { AdminUser } from '../../../../../shared/api/admin';
import { fetchUserSummary, searchUsers } from '../users/user-api';

export interface UserPickerProps extends Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'searchable' | 'searchValue' | 'onSearchChange'
> {
  /** The chosen account's id (or null). */
  value: string | null;
  onChange: (id: string | null, user: Pick<AdminUser, 'id' | 'email'> | null) => void;
}

type Option = { value: string; label: string };
const optionOf = (user: Pick<AdminUser, 'id' | 'email' | 'full_name'>): Option => ({
  value: user.id,
  label: user.full_name ? `${user.email} (${user.full_name})` : user.email,
});

/**
 * Picks an account by typing part of its e-mail, name or company: the server searches
 * (`GET /admin/users?search=…`), 250 ms after the last key. A value that arrives from a link
 * (an id) is shown by its e-mail.
 */
export function UserPicker({ value, onChange, ...props }: UserPickerProps) {
  const [search, setSearch] = useState('');
  const [options, setOptions] = useState<Option[]>([]);
  const [selected, setSelected] = useState<Option | null>(null);
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const latest = useRef(0);

  // The chosen account stays among the options whatever the last search found.
  useEffect(() => {
    if (!value) return setSelected(null);
    if (selected?.value === value) return;
    const known = options.find((option) => option.value === value);
    if (known) return setSelected(known);
    let current = true;
    fetchUserSummary(value).then(
      (user) => current && setSelected(optionOf(user)),
      () => current && setSelected({ value, label: 'Unknown user' }),
    );
    return () => {
      current = false;
    };
  }, [value, selected, options]);

  const find = useDebouncedCallback((text: string) => {
    const request = ++latest.current;
    setLoading(true);
    searchUsers(text).then(
      (page) => {
        if (request !== latest.current) return;
        setOptions(page.data.map(optionOf));
        setFailure(null);
        setLoading(false);
      },
      (error: unknown) => {
        if (request !== latest.current) return;
        setFailure(error instanceof Error ? error.message : String(error));
        setLoading(false);
      },
    );
  }, 250);

  const data =
    selected && !options.some((option) => option.value === selected.value) ? [selected, ...options] : options;

  return (
    <Select
      {...props}
      searchable
      clearable
      data={data}
      value={value}
      searchValue={search}
      onSearchChange={(text) => {
        setSearch(text);
        // Choosing an option writes its label into the field: that is not a new search.
        if (text !== selected?.label) find(text);
      }}
      onDropdownOpen={() => {
        if (options.length === 0) find(search === selected?.label ? '' : search);
      }}
      onChange={(id) => {
        const option = data.find((item) => item.value === id) ?? null;
        setSelected(option);
        onChange(id, option ? { id: option.value, email: option.label.replace(/ \(.*\)$/, '') } : null);
      }}
      // The server already filtered the options by the search.
      filter={({ options: shown }) => shown}
      // At most 10 options: no inner scroll box (its region would not be keyboard-focusable).
      withScrollArea={false}
      nothingFoundMessage={
        loading ? 'Searching…' : (failure ?? 'No user matches. Try part of the email or name.')
      }
      rightSection={loading ? <Loader size={16} /> : undefined}
      placeholder={props.placeholder ?? 'Search by email or name'}
    />
  );
}
