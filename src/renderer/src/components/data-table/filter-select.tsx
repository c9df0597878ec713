import { NativeSelect, type NativeSelectProps } from '@mantine/core';

/** What a filter control uses of a list's URL state (`useListQuery`). */
export interface FilterState<Filter extends string> {
  query: { filters: Record<Filter, string> };
  setFilter: (name: Filter, value: string) => void;
}

export interface FilterSelectProps<Filter extends string> extends Omit<
  NativeSelectProps,
  'value' | 'onChange' | 'size'
> {
  list: FilterState<Filter>;
  /** The filter it sets; the option '' stands for "any". */
  filter: Filter;
}

/** A list's filter as a select: it shows the URL's value and a choice narrows the list from page 1. */
export function FilterSelect<Filter extends string>({ list, filter, ...props }: FilterSelectProps<Filter>) {
  return (
    <NativeSelect
      size="md"
      value={list.query.filters[filter]}
      onChange={(event) => list.setFilter(filter, event.currentTarget.value)}
      {...props}
    />
  );
}
