import { SCIM_MAX_PAGE, SCIM_SCHEMAS } from '../../../shared/api/scim.js';
import { readPaging } from './resources.js';

export type ScimListQuery = {
  filter?: string | undefined;
  startIndex?: string | undefined;
  count?: string | undefined;
};

/** Where a list's page comes from: its total, a slice of its rows, and those rows as resources. */
export interface ScimListSource<Row, Resource> {
  total(): Promise<number>;
  rows(offset: number, limit: number): Promise<Row[]>;
  resources(rows: Row[]): Promise<Resource[]>;
}

/**
 * One page of a SCIM list, as RFC 7644 §3.4.2.4 answers it: startIndex is 1-based and `count=0`
 * asks for the total alone, so no rows are read for it. Users and Groups page alike.
 */
export async function scimListPage<Row, Resource>(
  query: ScimListQuery,
  source: ScimListSource<Row, Resource>,
) {
  const { startIndex, count } = readPaging(query, SCIM_MAX_PAGE);
  const totalResults = await source.total();
  const rows = count === 0 ? [] : await source.rows(startIndex - 1, count);
  return {
    schemas: [SCIM_SCHEMAS.listResponse],
    totalResults,
    startIndex,
    itemsPerPage: rows.length,
    Resources: await source.resources(rows),
  };
}
