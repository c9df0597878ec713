import { z } from 'zod';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../constants.js';

/**
 * The query of every paged list: `page`, `perPage` (page 1 of 10 by default), `search` and `sort`
 * (`field` or `-field` for descending). Each list names the fields it can sort by, so an unknown
 * one is a 400 that lists the choices instead of being silently ignored.
 */
export function pageQuerySchema<const Field extends string>(sortFields: readonly [Field, ...Field[]]) {
  const sortChoices = sortFields.flatMap((field) => [field, `-${field}`]);
  return z.object({
    page: z.coerce
      .number()
      .int('page must be a whole number')
      .min(1, 'page must be 1 or more')
      .max(1_000_000)
      .default(DEFAULT_PAGE),
    perPage: z.coerce
      .number()
      .int('perPage must be a whole number')
      .min(1, 'perPage must be 1 or more')
      .max(MAX_PAGE_SIZE, `perPage must be at most ${MAX_PAGE_SIZE}`)
      .default(DEFAULT_PAGE_SIZE),
    search: z.string().trim().max(200, 'search must be at most 200 characters').optional(),
    sort: z
      .string()
      .refine((value) => sortChoices.includes(value), {
        message: `must be one of ${sortChoices.join(', ')}`,
      })
      .transform((value) => ({
        field: value.replace(/^-/, '') as Field,
        direction: value.startsWith('-') ? ('desc' as const) : ('asc' as const),
      }))
      .optional(),
  });
}

/** `{ data, total, page, perPage }`: the shape every admin list answers with. */
export const pagedSchema = <Item extends z.ZodType>(item: Item) =>
  z.object({
    data: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    perPage: z.number().int(),
  });

export interface Paged<Item> {
  data: Item[];
  total: number;
  page: number;
  perPage: number;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const date = z.iso.date();
const dateTime = z.iso.datetime({ offset: true });
const dateMessage = (name: string) =>
  `${name} must be an ISO date (2025-01-31) or date-time (2025-01-31T12:00:00Z)`;

/**
 * A bound of a date range, as an ISO date or date-time, turned into the UTC instant it stands
 * for: a date means the start of that day for `from` and its last millisecond for `to`, so
 * `from=2025-01-01&to=2025-01-31` covers all of January.
 */
const dateBoundSchema = (name: 'from' | 'to') =>
  z
    .string()
    .trim()
    .refine((value) => date.safeParse(value).success || dateTime.safeParse(value).success, dateMessage(name))
    .transform((value) =>
      DATE_ONLY.test(value)
        ? `${value}T${name === 'from' ? '00:00:00.000' : '23:59:59.999'}Z`
        : new Date(value).toISOString(),
    )
    .describe(`${dateMessage(name)}; a date covers the whole day`);

/** The `from`/`to` filters of a list, both optional; refine the query with {@link orderedRange}. */
export const dateRange = { from: dateBoundSchema('from').optional(), to: dateBoundSchema('to').optional() };

/** `from` after `to` is a mistake worth naming rather than an empty page. */
export const orderedRange = <Query extends { from?: string | undefined; to?: string | undefined }>(
  query: Query,
) => query.from === undefined || query.to === undefined || query.from <= query.to;
export const rangeProblem = { message: 'from must not be after to', path: ['from'] };
