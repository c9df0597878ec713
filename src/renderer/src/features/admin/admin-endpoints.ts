import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import {
  type AdminUser,
  type AdminUserDetail,
  type ChangeTrialRequest,
  type DashboardStats,
  dashboardStatsSchema,
  type SecurityEvent,
} from '../../../../shared/api/admin';
import type {
  CreateFeatureRequest,
  Feature,
  featureStatsSchema,
  UpdateFeatureRequest,
} from '../../../../shared/api/features';
import type { AdminActivation } from '../../../../shared/api/admin';
import type { Paged } from '../../../../shared/api/paging';
import type { AdminPayment } from '../../../../shared/api/payments';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../../../shared/constants';
import { adminMessages, licenseMessages } from '../../../../shared/screen-messages';
import { pathWith } from '../../../../shared/routes';
import { adminApiPaths, paymentsApiPaths } from '../../../../shared/api-paths';
import type { z } from 'zod';
import { recordEndpointArea } from '../../lib/api-actions';
import { adminMessage, attempt } from '../../lib/api-errors';
import { api, type ApiRequest, servicesOf } from '../../lib/api';
import type { AdminLicense, ListParams } from './admin-types';

export type FeatureStats = z.infer<typeof featureStatsSchema>;

const paths = adminApiPaths;
/** Shown when these fail without the server saying why (in the language shown when they fail). */
const RESEND_CONFIRMATION_FAILED = msg`Could not send a new confirmation link`;
const RENAME_ACTIVATION_FAILED = msg`Could not rename the machine`;
const RESET_DEACTIVATIONS_FAILED = msg`Failed to reset the deactivation count`;
const at = (path: string, id: string) => pathWith(path, { id });

/** A failed admin call shows the server's message, else the error's own, else the call's fallback. */
const failing = (fallback: string | MessageDescriptor) =>
  typeof fallback === 'string'
    ? { fallback, pickMessage: adminMessage }
    : { pickMessage: (error: unknown) => adminMessage(error, i18n._(fallback)) };

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

/** A list's query: paging defaults to the first page of ten when the caller names none. */
const pageOf = (params: ListParams | void) => ({
  ...params,
  page: params?.page ?? DEFAULT_PAGE,
  perPage: params?.perPage ?? DEFAULT_PAGE_SIZE,
});
const listRequest = (url: string) => (params: ListParams | void) => ({ url, params: pageOf(params) });
const pagedAnswer =
  <Item>() =>
  (body: unknown, _meta: unknown, params: ListParams | void) =>
    readPaged<Item>(body, pageOf(params));

type AdminTag =
  'AdminUser' | 'AdminLicense' | 'AdminPayment' | 'AdminFeature' | 'SecurityEvent' | 'Dashboard';
const ADMIN_TAGS: readonly AdminTag[] = [
  'AdminUser',
  'AdminLicense',
  'AdminPayment',
  'AdminFeature',
  'SecurityEvent',
  'Dashboard',
];
const LIST = 'LIST';

/**
 * What an admin write makes stale: every other admin read (an administrator's action is a
 * security event, moves the overview's numbers and may show in the other lists), the written
 * kind's lists, and the written items themselves. A deleted item's own read is left alone: it
 * would only answer 404.
 */
const written = (type: AdminTag, ...ids: string[]) => [
  ...ADMIN_TAGS.filter((tag) => tag !== type),
  { type, id: LIST },
  ...ids.map((id) => ({ type, id })),
];
const listed = (type: AdminTag) => () => [{ type, id: LIST }];
const one = (type: AdminTag) => (_answer: unknown, _error: unknown, id: string) => [{ type, id }];

/** How many of a user's newest licenses and payments the user details drawer lists. */
export const DRAWER_LIST_SIZE = 5;
/** Safety net: a catalogue this large is not edited feature by feature. */
const MAX_FEATURE_PAGES = 50;

/**
 * The admin console's reads and writes. Those down to `deleteFeature` feed the admin slice (see
 * admin-slice.ts); the rest (pickers, the drawers' side lists, the package editor's catalogue) are
 * read by their screens only.
 */
export const adminApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /admin/dashboard; the overview draws every field, so another shape is an error to show. */
      getDashboard: build.query<DashboardStats, void>({
        queryFn: (_arg, queryApi) =>
          attempt(async () => {
            const { data } = await servicesOf(queryApi).client.http.get<unknown>(paths.dashboard);
            const stats = dashboardStatsSchema.safeParse(data);
            if (!stats.success) throw new Error(licenseMessages.invalidResponseFormat);
            return stats.data;
          }, failing(adminMessages.fetchSystemStatsFailed)),
        providesTags: ['Dashboard'],
      }),

      listUsers: build.query<Paged<AdminUser>, ListParams | void>({
        query: listRequest(paths.users),
        transformResponse: pagedAnswer<AdminUser>(),
        extraOptions: failing(adminMessages.fetchUsersFailed),
        providesTags: listed('AdminUser'),
      }),
      getUser: build.query<AdminUserDetail, string>({
        query: (id) => ({ url: at(paths.user, id) }),
        extraOptions: failing(adminMessages.fetchUserFailed),
        providesTags: one('AdminUser'),
      }),
      createUser: build.mutation<AdminUserDetail, object>({
        query: (body) => ({ url: paths.users, method: 'POST', body }),
        extraOptions: failing(adminMessages.createUserFailed),
        invalidatesTags: () => written('AdminUser'),
      }),
      updateUser: build.mutation<AdminUserDetail, { id: string; changes: object }>({
        query: ({ id, changes }) => ({ url: at(paths.user, id), method: 'PUT', body: changes }),
        extraOptions: failing(adminMessages.updateUserFailed),
        invalidatesTags: (_user, _error, { id }) => written('AdminUser', id),
      }),
      /** Answers the id of the deleted account. */
      deleteUser: build.mutation<string, string>({
        query: (id) => ({ url: at(paths.user, id), method: 'DELETE' }),
        transformResponse: (_body: unknown, _meta: unknown, id: string) => id,
        extraOptions: failing(adminMessages.deleteUserFailed),
        invalidatesTags: () => written('AdminUser'),
      }),

      listLicenses: build.query<Paged<AdminLicense>, ListParams | void>({
        query: listRequest(paths.licenses),
        transformResponse: pagedAnswer<AdminLicense>(),
        extraOptions: failing(adminMessages.fetchLicensesFailed),
        providesTags: listed('AdminLicense'),
      }),
      getLicense: build.query<AdminLicense, string>({
        query: (id) => ({ url: at(paths.license, id) }),
        extraOptions: failing(adminMessages.fetchLicenseFailed),
        providesTags: one('AdminLicense'),
      }),
      createLicense: build.mutation<AdminLicense, object>({
        query: (body) => ({ url: paths.licenses, method: 'POST', body }),
        extraOptions: failing(adminMessages.createLicenseFailed),
        invalidatesTags: () => written('AdminLicense'),
      }),
      updateLicense: build.mutation<AdminLicense, { id: string; changes: object }>({
        query: ({ id, changes }) => ({ url: at(paths.license, id), method: 'PUT', body: changes }),
        extraOptions: failing(adminMessages.updateLicenseFailed),
        invalidatesTags: (_license, _error, { id }) => written('AdminLicense', id),
      }),
      /** POST /admin/licenses/{id}/revoke?reason=… (the reason goes as query text). */
      revokeLicense: build.mutation<AdminLicense, { id: string; reason: string }>({
        query: ({ id, reason }) => ({
          url: at(paths.revokeLicense, id),
          method: 'POST',
          body: {},
          params: { reason },
        }),
        extraOptions: failing(adminMessages.revokeLicenseFailed),
        invalidatesTags: (_license, _error, { id }) => written('AdminLicense', id),
      }),
      /** POST /admin/licenses/{id}/deactivations/reset: forgive the counted deactivations, with a reason. */
      resetDeactivations: build.mutation<AdminLicense, { id: string; reason: string }>({
        query: ({ id, reason }) => ({
          url: at(paths.resetDeactivations, id),
          method: 'POST',
          body: { reason },
        }),
        extraOptions: failing(RESET_DEACTIVATIONS_FAILED),
        invalidatesTags: (_license, _error, { id }) => written('AdminLicense', id),
      }),
      /** POST /admin/licenses/{id}/trial: extend a free trial by some days, or end it now. */
      changeLicenseTrial: build.mutation<AdminLicense, { id: string; change: ChangeTrialRequest }>({
        query: ({ id, change }) => ({ url: at(paths.licenseTrial, id), method: 'POST', body: change }),
        extraOptions: failing(adminMessages.changeTrialFailed),
        invalidatesTags: (_license, _error, { id }) => written('AdminLicense', id),
      }),
      getLicenseActivations: build.query<{ licenseId: string; activations: AdminActivation[] }, string>({
        query: (id) => ({ url: at(paths.licenseActivations, id) }),
        transformResponse: (
          body: AdminActivation[] | { data: AdminActivation[] } | { activations: AdminActivation[] },
          _meta: unknown,
          id: string,
        ) => ({
          licenseId: id,
          activations: Array.isArray(body) ? body : 'data' in body ? body.data : body.activations,
        }),
        extraOptions: failing(adminMessages.fetchLicenseActivationsFailed),
        providesTags: one('AdminLicense'),
      }),
      /** Frees the seat; answers the license with its new seat count. */
      deactivateActivation: build.mutation<AdminLicense, { id: string; activationId: string }>({
        query: ({ id, activationId }) => ({
          url: pathWith(paths.deactivateActivation, { id, activationId }),
          method: 'POST',
        }),
        extraOptions: failing(licenseMessages.deactivationFailed),
        invalidatesTags: (_license, _error, { id }) => written('AdminLicense', id),
      }),

      listPayments: build.query<Paged<AdminPayment>, ListParams | void>({
        query: listRequest(paymentsApiPaths.adminList),
        transformResponse: pagedAnswer<AdminPayment>(),
        extraOptions: failing(adminMessages.fetchPaymentsFailed),
        providesTags: listed('AdminPayment'),
      }),
      getPayment: build.query<AdminPayment, string>({
        query: (id) => ({ url: at(paymentsApiPaths.adminDetail, id) }),
        extraOptions: failing(adminMessages.fetchPaymentFailed),
        providesTags: one('AdminPayment'),
      }),

      listSecurityEvents: build.query<Paged<SecurityEvent>, ListParams | void>({
        query: listRequest(paths.securityEvents),
        transformResponse: pagedAnswer<SecurityEvent>(),
        extraOptions: failing(adminMessages.fetchSecurityEventsFailed),
        providesTags: listed('SecurityEvent'),
      }),

      listFeatures: build.query<Paged<Feature>, ListParams | void>({
        query: listRequest(paths.features),
        transformResponse: pagedAnswer<Feature>(),
        extraOptions: failing(adminMessages.fetchFeaturesFailed),
        providesTags: listed('AdminFeature'),
      }),
      getFeature: build.query<Feature, string>({
        query: (id) => ({ url: at(paths.feature, id) }),
        extraOptions: failing(adminMessages.fetchFeatureFailed),
        providesTags: one('AdminFeature'),
      }),
      createFeature: build.mutation<Feature, CreateFeatureRequest>({
        query: (body) => ({ url: paths.features, method: 'POST', body }),
        extraOptions: failing(adminMessages.createFeatureFailed),
        invalidatesTags: () => written('AdminFeature'),
      }),
      updateFeature: build.mutation<Feature, { id: string; changes: UpdateFeatureRequest }>({
        query: ({ id, changes }) => ({ url: at(paths.feature, id), method: 'PUT', body: changes }),
        extraOptions: failing(adminMessages.updateFeatureFailed),
        invalidatesTags: (_feature, _error, { id }) => written('AdminFeature', id),
      }),
      /** Answers the id of the deleted feature. */
      deleteFeature: build.mutation<string, string>({
        query: (id) => ({ url: at(paths.feature, id), method: 'DELETE' }),
        transformResponse: (_body: unknown, _meta: unknown, id: string) => id,
        extraOptions: failing(adminMessages.deleteFeatureFailed),
        invalidatesTags: () => written('AdminFeature'),
      }),

      // Read by their screens only; they do not feed the admin slice.

      /** GET /admin/features/stats: counts per kind, and per feature its packages and this month's use. */
      getFeatureStats: build.query<FeatureStats, void>({
        query: () => ({ url: paths.featureStats }),
        extraOptions: failing(adminMessages.fetchFeaturesFailed),
        providesTags: listed('AdminFeature'),
      }),
      /** Every feature of the catalogue, by name: the rows of a package's feature editor. */
      getFeatureCatalogue: build.query<Feature[], void>({
        queryFn: async (_arg, _queryApi, _extra, baseQuery) => {
          const page = async (number: number) => {
            const answer = await baseQuery({
              url: paths.features,
              params: { page: number, perPage: MAX_PAGE_SIZE, sort: 'name' },
            } satisfies ApiRequest);
            if (answer.error) throw answer.error;
            return answer.data as Paged<Feature>;
          };
          try {
            const first = await page(1);
            const pages = Math.min(Math.ceil(first.total / MAX_PAGE_SIZE), MAX_FEATURE_PAGES);
            const rest = await Promise.all(
              Array.from({ length: Math.max(0, pages - 1) }, (_, index) => page(index + 2)),
            );
            return { data: [first, ...rest].flatMap((result) => result.data) };
          } catch (error) {
            return { error: error as never };
          }
        },
        extraOptions: failing(adminMessages.fetchFeaturesFailed),
        providesTags: listed('AdminFeature'),
      }),
      getSecurityEvent: build.query<SecurityEvent, string>({
        query: (id) => ({ url: at(paths.securityEvent, id) }),
        extraOptions: failing(adminMessages.fetchSecurityEventsFailed),
        providesTags: one('SecurityEvent'),
      }),
      /** One license without making it the slice's selected license (a payment's granted license). */
      getLicenseSummary: build.query<AdminLicense, string>({
        query: (id) => ({ url: at(paths.license, id) }),
        extraOptions: failing(adminMessages.fetchLicenseFailed),
        providesTags: one('AdminLicense'),
      }),
      /** One account without making it the slice's selected user (a filter only needs its e-mail). */
      getUserSummary: build.query<AdminUserDetail, string>({
        query: (id) => ({ url: at(paths.user, id) }),
        extraOptions: failing(adminMessages.fetchUserFailed),
        providesTags: one('AdminUser'),
      }),
      /** Accounts whose e-mail, name or company matches, for pickers (the first ten by e-mail). */
      searchUsers: build.query<Paged<AdminUser>, string>({
        query: (search) => ({
          url: paths.users,
          params: {
            page: 1,
            perPage: 10,
            sort: 'email',
            ...(search.trim() ? { search: search.trim() } : {}),
          },
        }),
        extraOptions: failing(adminMessages.fetchUsersFailed),
        providesTags: listed('AdminUser'),
      }),
      /** A user's newest licenses (`?userId=…`), for the user details drawer. */
      listUserLicenses: build.query<Paged<AdminLicense>, string>({
        query: (userId) => ({
          url: paths.licenses,
          params: { userId, page: 1, perPage: DRAWER_LIST_SIZE, sort: '-created_at' },
        }),
        extraOptions: failing(adminMessages.fetchLicensesFailed),
        providesTags: listed('AdminLicense'),
      }),
      /** A user's newest payments (`?userId=…`), for the user details drawer. */
      listUserPayments: build.query<Paged<AdminPayment>, string>({
        query: (userId) => ({
          url: paymentsApiPaths.adminList,
          params: { userId, page: 1, perPage: DRAWER_LIST_SIZE, sort: '-created_at' },
        }),
        extraOptions: failing(adminMessages.fetchPaymentsFailed),
        providesTags: listed('AdminPayment'),
      }),
      /** Queues a new confirmation link to an unconfirmed account; answers the server's message. */
      resendConfirmation: build.mutation<{ message: string }, string>({
        query: (id) => ({ url: at(paths.resendConfirmation, id), method: 'POST' }),
        extraOptions: failing(RESEND_CONFIRMATION_FAILED),
        // Recorded as an administrator's action: the security lists and the overview change.
        invalidatesTags: () => ['SecurityEvent', 'Dashboard'],
      }),
      /** Names a machine of a license (null drops the name); answers the license. */
      renameActivation: build.mutation<
        AdminLicense,
        { id: string; activationId: string; label: string | null }
      >({
        query: ({ id, activationId, label }) => ({
          url: pathWith(paths.activation, { id, activationId }),
          method: 'PATCH',
          body: { label },
        }),
        extraOptions: failing(RENAME_ACTIVATION_FAILED),
        invalidatesTags: (_license, _error, { id }) => written('AdminLicense', id),
      }),
    };
    // Only this module's names: `adminApi.endpoints` also lists what other features injected.
    recordEndpointArea('admin', Object.keys(endpoints));
    return endpoints;
  },
});

export const {
  useGetDashboardQuery,
  useListUsersQuery,
  useGetUserQuery,
  useCreateUserMutation,
  useUpdateUserMutation,
  useDeleteUserMutation,
  useListLicensesQuery,
  useGetLicenseQuery,
  useGetLicenseActivationsQuery,
  useCreateLicenseMutation,
  useUpdateLicenseMutation,
  useRevokeLicenseMutation,
  useChangeLicenseTrialMutation,
  useDeactivateActivationMutation,
  useResetDeactivationsMutation,
  useListPaymentsQuery,
  useGetPaymentQuery,
  useListSecurityEventsQuery,
  useGetSecurityEventQuery,
  useListFeaturesQuery,
  useCreateFeatureMutation,
  useUpdateFeatureMutation,
  useDeleteFeatureMutation,
  useGetFeatureStatsQuery,
  useGetFeatureCatalogueQuery,
  useGetLicenseSummaryQuery,
  useGetUserSummaryQuery,
  useSearchUsersQuery,
  useListUserLicensesQuery,
  useListUserPaymentsQuery,
  useResendConfirmationMutation,
  useRenameActivationMutation,
} = adminApi;
