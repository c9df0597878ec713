import {
  type AdminUser,
  type AdminUserDetail,
  dashboardStatsSchema,
  type SecurityEvent,
} from '../../../../shared/api/admin';
import type { CreateFeatureRequest, Feature, UpdateFeatureRequest } from '../../../../shared/api/features';
import type { z } from 'zod';
import type { featureStatsSchema } from '../../../../shared/api/features';
import type { Activation } from '../../../../shared/api/licenses';
import type { Paged } from '../../../../shared/api/paging';
import type { AdminPayment } from '../../../../shared/api/payments';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from '../../../../shared/constants';
import { adminMessages, licenseMessages } from '../../../../shared/messages';
import { pathWith } from '../../../../shared/routes';
import { adminMessage, toApiRequestError } from '../../lib/api-errors';
import { createAppThunk } from '../../lib/create-app-thunk';
import { getServices, type Services } from '../../lib/services';
import { adminPaths } from './admin-paths';
import type { AdminCollection, AdminLicense, AdminState, ListParams } from './admin-types';

const CACHE = 'admin:';

/** A failed admin call keeps in state.error the server's message, else the error's, else the default. */
function adminThunk<Arg, Result>(
  type: string,
  fallback: string,
  run: (arg: Arg, services: Services) => Promise<Result>,
) {
  return createAppThunk(type, async (arg: Arg, { extra, rejectWithValue }) => {
    try {
      return await run(arg, extra);
    } catch (error) {
      return rejectWithValue(adminMessage(error, fallback));
    }
  });
}

/** A list may come as `{ features }`, `{ data }` or a bare array; total is `total` or the length. */
export function readPaged<Item>(body: unknown, params: { page: number; perPage: number }): Paged<Item> {
  const fields = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  const data = (
    Array.isArray(body) ? body : Array.isArray(fields.features) ? fields.features : fields.data
  ) as Item[] | undefined;
  const items = Array.isArray(data) ? data : [];
  const number = (value: unknown, fallback: number) => (typeof value === 'number' ? value : fallback);
  return {
    data: items,
    total: number(fields.total, items.length),
    page: number(fields.page, params.page),
    perPage: number(fields.perPage, params.perPage),
  };
}

async function get<T>(services: Services, path: string, params?: object): Promise<T> {
  const key = `${CACHE}${path}?${JSON.stringify(params ?? {})}`;
  return services.cache.get(key, async () => (await services.client.http.get<T>(path, { params })).data);
}

async function write<T>(services: Services, request: Promise<{ data: T }>): Promise<T> {
  const { data } = await request;
  services.cache.invalidate(CACHE);
  return data;
}

function listThunk<Item>(type: string, fallback: string, collection: AdminCollection, path: string) {
  return createAppThunk(type, async (params: ListParams | void, { extra, getState, rejectWithValue }) => {
    const current = (getState() as { admin?: AdminState }).admin?.[collection];
    const query = {
      ...params,
      page: params?.page ?? current?.page ?? DEFAULT_PAGE,
      perPage: params?.perPage ?? current?.perPage ?? DEFAULT_PAGE_SIZE,
    };
    try {
      return readPaged<Item>(await get(extra, path, query), query);
    } catch (error) {
      return rejectWithValue(adminMessage(error, fallback));
    }
  });
}

const at = (path: string, id: string) => pathWith(path, { id });

export const fetchSystemStats = adminThunk(
  'admin/fetchSystemStats',
  adminMessages.fetchSystemStatsFailed,
  async (options: { fresh?: boolean } | void, s) => {
    // "Refresh" on the overview asks the server again rather than reading the 60 s cache.
    if (options?.fresh) s.cache.invalidate(`${CACHE}${adminPaths.dashboard}?`);
    // The overview draws every field: an answer of another shape is an error to show, not a crash.
    const stats = dashboardStatsSchema.safeParse(await get<unknown>(s, adminPaths.dashboard));
    if (!stats.success) throw new Error(licenseMessages.invalidResponseFormat);
    return stats.data;
  },
);

export const fetchUsers = listThunk<AdminUser>(
  'admin/fetchUsers',
  adminMessages.fetchUsersFailed,
  'users',
  adminPaths.users,
);
export const fetchUser = adminThunk('admin/fetchUser', adminMessages.fetchUserFailed, (id: string, s) =>
  get<AdminUserDetail>(s, at(adminPaths.user, id)),
);
export const createUser = adminThunk('admin/createUser', adminMessages.createUserFailed, (body: object, s) =>
  write(s, s.client.http.post<AdminUserDetail>(adminPaths.users, body)),
);
export const updateUser = adminThunk(
  'admin/updateUser',
  adminMessages.updateUserFailed,
  ({ id, changes }: { id: string; changes: object }, s) =>
    write(s, s.client.http.put<AdminUserDetail>(at(adminPaths.user, id), changes)),
);
export const deleteUser = adminThunk(
  'admin/deleteUser',
  adminMessages.deleteUserFailed,
  async (id: string, s) => {
    await write(s, s.client.http.delete(at(adminPaths.user, id)));
    return id;
  },
);

export const fetchAdminLicenses = listThunk<AdminLicense>(
  'admin/fetchLicenses',
  adminMessages.fetchLicensesFailed,
  'licenses',
  adminPaths.licenses,
);
export const fetchAdminLicense = adminThunk(
  'admin/fetchLicense',
  adminMessages.fetchLicenseFailed,
  (id: string, s) => get<AdminLicense>(s, at(adminPaths.license, id)),
);
export const createLicense = adminThunk(
  'admin/createLicense',
  adminMessages.createLicenseFailed,
  (body: object, s) => write(s, s.client.http.post<AdminLicense>(adminPaths.licenses, body)),
);
export const updateLicense = adminThunk(
  'admin/updateLicense',
  adminMessages.updateLicenseFailed,
  ({ id, changes }: { id: string; changes: object }, s) =>
    write(s, s.client.http.put<AdminLicense>(at(adminPaths.license, id), changes)),
);
/** POST /admin/licenses/{id}/revoke?reason=… (the reason goes as query text). */
export const revokeLicense = adminThunk(
  'admin/revokeLicense',
  adminMessages.revokeLicenseFailed,
  ({ id, reason }: { id: string; reason: string }, s) =>
    write(s, s.client.http.post<AdminLicense>(at(adminPaths.revokeLicense, id), {}, { params: { reason } })),
);
export const fetchLicenseActivations = adminThunk(
  'admin/fetchLicenseActivations',
  adminMessages.fetchLicenseActivationsFailed,
  async (id: string, s) => {
    const body = await get<Activation[] | { data: Activation[] } | { activations: Activation[] }>(
      s,
      at(adminPaths.licenseActivations, id),
    );
    const activations = Array.isArray(body) ? body : 'data' in body ? body.data : body.activations;
    return { licenseId: id, activations };
  },
);
/** POST /admin/licenses/{id}/activations/{activationId}/deactivate: frees the seat; answers the licence. */
export const deactivateActivation = adminThunk(
  'admin/deactivateActivation',
  licenseMessages.deactivationFailed,
  ({ id, activationId }: { id: string; activationId: string }, s) =>
    write(
      s,
      s.client.http.post<AdminLicense>(pathWith(adminPaths.deactivateActivation, { id, activationId })),
    ),
);

export const fetchPayments = listThunk<AdminPayment>(
  'admin/fetchPayments',
  adminMessages.fetchPaymentsFailed,
  'payments',
  adminPaths.payments,
);
export const fetchPayment = adminThunk(
  'admin/fetchPayment',
  adminMessages.fetchPaymentFailed,
  (id: string, s) => get<AdminPayment>(s, at(adminPaths.payment, id)),
);

export const fetchSecurityEvents = listThunk<SecurityEvent>(
  'admin/fetchSecurityEvents',
  adminMessages.fetchSecurityEventsFailed,
  'securityEvents',
  adminPaths.securityEvents,
);

export const fetchFeatures = listThunk<Feature>(
  'admin/fetchFeatures',
  adminMessages.fetchFeaturesFailed,
  'features',
  adminPaths.features,
);
export const fetchFeature = adminThunk(
  'admin/fetchFeature',
  adminMessages.fetchFeatureFailed,
  (id: string, s) => get<Feature>(s, at(adminPaths.feature, id)),
);
export const createFeature = adminThunk(
  'admin/createFeature',
  adminMessages.createFeatureFailed,
  (body: CreateFeatureRequest, s) => write(s, s.client.http.post<Feature>(adminPaths.features, body)),
);
export const updateFeature = adminThunk(
  'admin/updateFeature',
  adminMessages.updateFeatureFailed,
  ({ id, changes }: { id: string; changes: UpdateFeatureRequest }, s) =>
    write(s, s.client.http.put<Feature>(at(adminPaths.feature, id), changes)),
);
export const deleteFeature = adminThunk(
  'admin/deleteFeature',
  adminMessages.deleteFeatureFailed,
  async (id: string, s) => {
    await write(s, s.client.http.delete(at(adminPaths.feature, id)));
    return id;
  },
);

export type FeatureStats = z.infer<typeof featureStatsSchema>;

/** GET /admin/features/stats (cached 60 s); not kept in the store, the features page reads it directly. */
export async function fetchFeatureStats(services: Services = getServices()) {
  try {
    // Read as the shared schema's type: the server writes the answer through that schema.
    return await get<FeatureStats>(services, adminPaths.featureStats);
  } catch (error) {
    throw toApiRequestError(error, adminMessages.fetchFeaturesFailed, adminMessage);
  }
}
