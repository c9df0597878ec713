import { apiErrorSchema } from '../../shared/api/errors.js';

/** Documents the error statuses a route can answer, all with the one error body. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, apiErrorSchema])) as Record<
    number,
    typeof apiErrorSchema
  >;

export const bearerSecurity = [{ bearerAuth: [], apiKey: [] }];
export const apiKeySecurity = [{ apiKey: [] }];
