import type { z } from 'zod';
import type {
  adminOrganisationDetailSchema,
  adminOrganisationListSchema,
  Invitation,
  Organisation,
  OrganisationMember,
} from '../../../../../shared/api/organisations';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from '../../../../../shared/constants';
import { pathWith } from '../../../../../shared/routes';
import { adminOrganisationsApiPaths, organisationsApiPaths } from '../../../../../shared/api-paths';
import { api } from '../../../lib/api';
import { recordEndpointArea } from '../../../lib/api-actions';
import type { ListParams } from '../admin-types';

export type AdminOrganisationList = z.infer<typeof adminOrganisationListSchema>;
export type AdminOrganisationSummary = AdminOrganisationList['data'][number];
export type AdminOrganisationDetail = z.infer<typeof adminOrganisationDetailSchema>;

// The fallbacks of the administrators' organisation calls, shown when the server gives no message.
export const adminOrganisationMessages = {
  fetchOrganisationsFailed: 'Failed to fetch organizations',
  fetchOrganisationFailed: 'Failed to fetch the organization',
  removeMemberFailed: 'The member could not be removed',
  assignSeatFailed: 'The seat could not be assigned',
  unassignSeatFailed: 'The seat could not be taken back',
  revokeInvitationFailed: 'The invitation could not be revoked',
  transferOwnershipFailed: 'Ownership could not be transferred',
} as const;

const adminPaths = adminOrganisationsApiPaths;
const paths = organisationsApiPaths;

/** A member of one organisation, as the customer routes name it. */
export interface MemberRef {
  organisationId: string;
  userId: string;
}

/** An invitation of one organisation. */
export interface InvitationRef {
  organisationId: string;
  invitationId: string;
}

/*
 * A change to an organisation's members or seats also ends machines (a seat taken back), moves its
 * license to a new owner (a transfer), and is written to the security log: those screens read again,
 * and so does the customer's organisation page of an administrator who is a member too.
 */
const CHANGED = ['AdminOrganisation', 'Organisation', 'AdminLicense', 'AdminUser', 'SecurityEvent'] as const;

/**
 * Administrators: every organisation, and support on any of them. The writes are the customer
 * routes (`organisationsApiPaths`): a platform administrator may do there whatever an owner may.
 */
export const adminOrganisationsApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /admin/organisations: paged, searched by name or a member's e-mail. */
      listAdminOrganisations: build.query<AdminOrganisationList, ListParams | void>({
        query: (params) => ({
          url: adminPaths.list,
          params: {
            ...params,
            page: params?.page ?? DEFAULT_PAGE,
            perPage: params?.perPage ?? DEFAULT_PAGE_SIZE,
          },
        }),
        extraOptions: { fallback: adminOrganisationMessages.fetchOrganisationsFailed },
        providesTags: ['AdminOrganisation'],
      }),
      /** GET /admin/organisations/{organisationId}: members with their machines, invitations, subscription. */
      getAdminOrganisation: build.query<AdminOrganisationDetail, string>({
        query: (organisationId) => ({ url: pathWith(adminPaths.detail, { organisationId }) }),
        extraOptions: { fallback: adminOrganisationMessages.fetchOrganisationFailed },
        providesTags: ['AdminOrganisation'],
      }),
      /** DELETE /organisations/{organisationId}/members/{userId}: their seat and machines go with them. */
      adminRemoveOrganisationMember: build.mutation<void, MemberRef>({
        query: (member) => ({ url: pathWith(paths.member, { ...member }), method: 'DELETE' }),
        extraOptions: { fallback: adminOrganisationMessages.removeMemberFailed },
        invalidatesTags: [...CHANGED],
      }),
      /** PUT /organisations/{organisationId}/members/{userId}/seat: refused when every seat is taken. */
      adminAssignOrganisationSeat: build.mutation<OrganisationMember, MemberRef>({
        query: (member) => ({ url: pathWith(paths.memberSeat, { ...member }), method: 'PUT' }),
        extraOptions: { fallback: adminOrganisationMessages.assignSeatFailed },
        invalidatesTags: [...CHANGED],
      }),
      /** DELETE /organisations/{organisationId}/members/{userId}/seat: the member's machines stop at their next check. */
      adminUnassignOrganisationSeat: build.mutation<OrganisationMember, MemberRef>({
        query: (member) => ({ url: pathWith(paths.memberSeat, { ...member }), method: 'DELETE' }),
        extraOptions: { fallback: adminOrganisationMessages.unassignSeatFailed },
        invalidatesTags: [...CHANGED],
      }),
      /** DELETE /organisations/{organisationId}/invitations/{invitationId}: the link stops working. */
      adminRevokeOrganisationInvitation: build.mutation<Invitation, InvitationRef>({
        query: (invitation) => ({ url: pathWith(paths.invitation, { ...invitation }), method: 'DELETE' }),
        extraOptions: { fallback: adminOrganisationMessages.revokeInvitationFailed },
        invalidatesTags: [...CHANGED],
      }),
      /** POST /organisations/{organisationId}/transfer-ownership: the member becomes owner, the owner an admin. */
      adminTransferOrganisationOwnership: build.mutation<Organisation, MemberRef>({
        query: ({ organisationId, userId }) => ({
          url: pathWith(paths.transferOwnership, { organisationId }),
          method: 'POST',
          body: { user_id: userId },
        }),
        extraOptions: { fallback: adminOrganisationMessages.transferOwnershipFailed },
        invalidatesTags: [...CHANGED],
      }),
    };
    recordEndpointArea('admin-organisations', Object.keys(endpoints));
    return endpoints;
  },
});

export const {
  useListAdminOrganisationsQuery,
  useGetAdminOrganisationQuery,
  useAdminRemoveOrganisationMemberMutation,
  useAdminAssignOrganisationSeatMutation,
  useAdminUnassignOrganisationSeatMutation,
  useAdminRevokeOrganisationInvitationMutation,
  useAdminTransferOrganisationOwnershipMutation,
} = adminOrganisationsApi;
