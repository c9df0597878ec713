import { type SelectQueryBuilder, sql } from 'kysely';
import type { Paged } from '../../../shared/api/paging.js';

export interface PageRequest {
  page: number;
  perPage: number;
}

/**
 * Runs a list query one page at a time: the total over the same filters, then the rows of the
 * page. `query` must already carry its filters and ordering (with a unique tie-breaker, so
 * pages never overlap or skip rows).
 */
export async function fetchPage<DB, TB extends keyof DB, Row>(
  query: SelectQueryBuilder<DB, TB, Row>,
  { page, perPage }: PageRequest,
): Promise<Paged<Row>> {
  const counted = (await query
    .clearSelect()
    .clearOrderBy()
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirst()) as { total: number | string } | undefined;
  const rows = await query
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  return { data: rows as Row[], total: Number(counted?.total ?? 0), page, perPage };
}

/** `%term%` for LIKE with the term's own wildcards escaped (used with `escape '\'`). */
export const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/** A case-insensitive "contains" over several text columns, the same on SQLite and PostgreSQL. */
export function matchesSearch(columns: string[], term: string) {
  const pattern = likePattern(term.toLowerCase());
  return sql<boolean>`(${sql.join(
    columns.map((column) => sql`lower(${sql.ref(column)}) like ${pattern} escape '\\'`),
    sql` or `,
  )})`;
}
