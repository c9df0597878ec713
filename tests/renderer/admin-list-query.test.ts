import { describe, expect, it } from 'vitest';
import {
  type ListQuerySpec,
  readListQuery,
  toListParams,
  writeListQuery,
} from '../../src/renderer/src/components/data-table/list-query';

const spec: ListQuerySpec<'role' | 'status'> = {
  sortFields: ['created_at', 'email'],
  defaultSort: '-created_at',
  filters: ['role', 'status'],
};

const read = (query: string) => readListQuery(new URLSearchParams(query), spec);

describe('admin list state in the query string', () => {
  it('reads page, size, search, sort and filters as a shared link states them', () => {
    expect(read('page=3&perPage=50&search=ada&sort=email&role=admin')).toEqual({
      page: 3,
      perPage: 50,
      search: 'ada',
      sort: 'email',
      filters: { role: 'admin', status: '' },
    });
  });

  it('turns a hand-edited URL into the defaults instead of a request the server refuses', () => {
    expect(read('page=0&perPage=1000&sort=password')).toMatchObject({
      page: 1,
      perPage: 10,
      sort: '-created_at',
    });
    expect(read('page=abc&perPage=-5')).toMatchObject({ page: 1, perPage: 10 });
    expect(read('page=2.5')).toMatchObject({ page: 1 });
  });

  it('writes only what differs from the defaults, so the plain list has a plain URL', () => {
    expect(writeListQuery(read(''), spec).toString()).toBe('');
    const query = {
      ...read(''),
      page: 2,
      search: '  ada ',
      sort: 'email',
      filters: { role: 'user', status: '' },
    };
    expect(writeListQuery(query, spec).toString()).toBe('page=2&search=ada&sort=email&role=user');
  });

  it('sends the server the page, the size and only the filters that are set', () => {
    expect(toListParams(read('search=%20x%20&status=disabled'))).toEqual({
      page: 1,
      perPage: 10,
      search: 'x',
      sort: '-created_at',
      status: 'disabled',
    });
  });

  it('round-trips every state it writes', () => {
    const query = read('page=7&perPage=25&search=key&sort=-email&role=admin&status=active');
    expect(read(writeListQuery(query, spec).toString())).toEqual(query);
  });
});
