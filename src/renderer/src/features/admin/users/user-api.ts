import type { AdminLicense, AdminUser, AdminUserDetail } from '../../../../../shared/api/admin';
import type { Paged } from '../../../../../shared/api/paging';
import type { AdminPayment } from '../../../../../shared/api/payments';
import { adminMessages } from '../../../../../shared/messages';
import { pathWith } from '../../../../../shared/routes';
import { adminMessage, toApiRequestError } from '../../../lib/api-errors';
import { getServices, type Services } from '../../../lib/services';
import { adminPaths } from '../admin-paths';

/**
 * Reads the user screens need besides the admin slice's own collections: a user's licenses and
 * payments in the details drawer, and the user search of the license forms. They go through the
 * same 60 s cache (and the same `admin:` keys) as the admin thunks, so every admin write clears them.
 */
async function read<T>(path: string, params: object, fallback: string, services: Services): Promise<T> {
  const key = `admin:${path}?${JSON.stringify(params)}`;
  try {
    return await services.cache.get(
      key,
      async () => (await services.client.http.get<T>(path, { params })).data,
    );
  } catch (error) {
    throw toApiRequestError(error, fallback, adminMessage);
  }
}

/** How many of a user's newest licenses and payments the details drawer lists. */
export const DRAWER_LIST_SIZE = 5;

/** A user's newest licenses (`GET /admin/licenses?userId=…`). */
export const fetchUserLicenses = (userId: string, services: Services = getServices()) =>
  read<Paged<AdminLicense>>(
    adminPaths.licenses,
    { userId, page: 1, perPage: DRAWER_LIST_SIZE, sort: '-created_at' },
    adminMessages.fetchLicensesFailed,
    services,
  );

/** A user's newest payments (`GET /payments/admin/payments?userId=…`). */
export const fetchUserPayments = (userId: string, services: Services = getServices()) =>
  read<Paged<AdminPayment>>(
    adminPaths.payments,
    { userId, page: 1, perPage: DRAWER_LIST_SIZE, sort: '-created_at' },
    adminMessages.fetchPaymentsFailed,
    services,
  );

/** Accounts whose e-mail, name or company matches (`GET /admin/users?search=…`), for pickers. */
export const searchUsers = (search: string, services: Services = getServices()) =>
  read<Paged<AdminUser>>(
    adminPaths.users,
    { page: 1, perPage: 10, sort: 'email', ...(search.trim() ? { search: search.trim() } : {}) },
    adminMessages.fetchUsersFailed,
    services,
  );

/** One account, without making it the admin slice's selected user (a filter only needs its e-mail). */
export const fetchUserSummary = (id: string, services: Services = getServices()) =>
  read<AdminUserDetail>(pathWith(adminPaths.user, { id }), {}, adminMessages.fetchUserFailed, services);
