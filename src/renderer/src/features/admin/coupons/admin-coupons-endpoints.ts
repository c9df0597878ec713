import type { z } from 'zod';
import type {
  Coupon,
  createCouponRequestSchema,
  updateCouponRequestSchema,
} from '../../../../../shared/api/coupons';
import { pathWith } from '../../../../../shared/routes';
import { couponsApiPaths } from '../../../../../shared/api-paths';
import { api } from '../../../lib/api';
import { recordEndpointArea } from '../../../lib/api-actions';

/** POST /admin/coupons's body as sent (the server reads the code and currency in capitals). */
export type CreateCouponRequest = z.input<typeof createCouponRequestSchema>;
/** PUT /admin/coupons/{id}'s body: only what changes. */
export type UpdateCouponRequest = z.input<typeof updateCouponRequestSchema>;

// The fallbacks of the administrators' coupon calls, shown when the server gives no message.
export const adminCouponMessages = {
  fetchCouponsFailed: 'Failed to fetch coupons',
  createCouponFailed: 'Failed to create the coupon',
  updateCouponFailed: 'Failed to update the coupon',
} as const;

const paths = couponsApiPaths;

/** Administrators: every coupon (one list, not paged: there are few), create, change and archive. */
export const adminCouponsApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /admin/coupons: newest first, with how often each was redeemed. */
      listAdminCoupons: build.query<Coupon[], void>({
        query: () => ({ url: paths.adminList }),
        transformResponse: (answer: { data: Coupon[] }) => answer.data,
        extraOptions: { fallback: adminCouponMessages.fetchCouponsFailed },
        providesTags: ['Coupon'],
      }),
      /** POST /admin/coupons. */
      createAdminCoupon: build.mutation<Coupon, CreateCouponRequest>({
        query: (body) => ({ url: paths.adminList, method: 'POST', body }),
        extraOptions: { fallback: adminCouponMessages.createCouponFailed },
        invalidatesTags: ['Coupon', 'SecurityEvent'],
      }),
      /** PUT /admin/coupons/{id}: description, expiry, limit, or archived. */
      updateAdminCoupon: build.mutation<Coupon, { id: string; changes: UpdateCouponRequest }>({
        query: ({ id, changes }) => ({
          url: pathWith(paths.adminDetail, { id }),
          method: 'PUT',
          body: changes,
        }),
        extraOptions: { fallback: adminCouponMessages.updateCouponFailed },
        invalidatesTags: ['Coupon', 'SecurityEvent'],
      }),
    };
    // The admin area: working here keeps the session alive like the other admin screens.
    recordEndpointArea('admin', Object.keys(endpoints));
    return endpoints;
  },
});

export const { useListAdminCouponsQuery, useCreateAdminCouponMutation, useUpdateAdminCouponMutation } =
  adminCouponsApi;
