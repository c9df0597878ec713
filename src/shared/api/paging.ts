import { z } from 'zod';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../constants.js';

/**
 * The query of every paged list: `page`, `perPage` (SPEC §9 defaults), `search` and `sort`
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

/** `{ data, total, page, perPage }`: the shape every admin list answers with (SPEC §7). */
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
