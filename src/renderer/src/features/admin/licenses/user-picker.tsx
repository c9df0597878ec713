import { useLingui } from '@lingui/react/macro';
import { Loader, Select, type SelectProps } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { useState } from 'react';
import type { AdminUser } from '../../../../../shared/api/admin';
import { useGetUserSummaryQuery, useSearchUsersQuery } from '../admin-endpoints';
import { failureOf } from '../query-answer';

export interface UserPickerProps extends Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'searchable' | 'searchValue' | 'onSearchChange'
> {
  /** The chosen account's id (or null). */
  value: string | null;
  /**
   * In a form: the options open in the form's flow under the field and push the fields below
   * down, instead of a layer over them (a filter bar keeps the layer, so the list does not jump).
   */
  inline?: boolean;
  onChange: (id: string | null, user: Pick<AdminUser, 'id' | 'email'> | null) => void;
}

type Option = { value: string; label: string };

/** The dropdown rendered where the field is and laid out in the flow (its floating position unused). */
const INLINE_OPTIONS: SelectProps['comboboxProps'] = {
  withinPortal: false,
  styles: { dropdown: { position: 'static', marginTop: 4 } },
};
const optionOf = (user: Pick<AdminUser, 'id' | 'email' | 'full_name'>): Option => ({
  value: user.id,
  label: user.full_name ? `${user.email} (${user.full_name})` : user.email,
});

/**
 * Picks an account by typing part of its e-mail, name or company: the server searches
 * (`GET /admin/users?search=…`), 250 ms after the last key. A value that arrives from a link
 * (an id) is shown by its e-mail.
 */
export function UserPicker({ value, onChange, inline = false, ...props }: UserPickerProps) {
  const { t } = useLingui();
  const [search, setSearch] = useState('');
  // Nothing is searched before the field is first used.
  const [query, setQuery] = useState<string | null>(null);
  const [chosen, setChosen] = useState<Option | null>(null);
  const found = useSearchUsersQuery(query ?? skipToken);
  const options = found.data?.data.map(optionOf) ?? [];
  const loading = found.isFetching;
  const failure = failureOf(found);

  // The chosen account stays among the options whatever the last search found; an id from a
  // link is shown by its e-mail.
  const known = value
    ? chosen?.value === value
      ? chosen
      : options.find((option) => option.value === value)
    : null;
  const summary = useGetUserSummaryQuery(value && !known ? value : skipToken);
  const selected: Option | null = !value
    ? null
    : (known ??
      (summary.data?.id === value
        ? optionOf(summary.data)
        : summary.isError
          ? { value, label: t`Unknown user` }
          : null));

  const find = useDebouncedCallback((text: string) => setQuery(text), 250);

  const data =
    selected && !options.some((option) => option.value === selected.value) ? [selected, ...options] : options;

  return (
    <Select
      {...props}
      comboboxProps={inline ? INLINE_OPTIONS : props.comboboxProps}
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
        setChosen(option);
        onChange(id, option ? { id: option.value, email: option.label.replace(/ \(.*\)$/, '') } : null);
      }}
      // The server already filtered the options by the search.
      filter={({ options: shown }) => shown}
      // At most 10 options: no inner scroll box (its region would not be keyboard-focusable).
      withScrollArea={false}
      nothingFoundMessage={
        loading ? t`Searching…` : (failure ?? t`No user matches. Try part of the e-mail or name.`)
      }
      rightSection={loading ? <Loader size={16} /> : undefined}
      placeholder={props.placeholder ?? t`Search by e-mail or name`}
    />
  );
}
