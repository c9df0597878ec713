import type {
  AssignableOrganisationRole,
  CreateOrganisationBody,
  Invitation,
  InvitationPreview,
  InviteMemberBody,
  Organisation,
  SeatPurchase,
  OrganisationMember,
  SeatQuote,
  UpdateOrganisationBody,
} from '../../../../shared/api/organisations';
import { authMessages } from '../../../../shared/messages';
import { pathWith, invitationsApiPaths } from '../../../../shared/routes';
import { organisationsApiPaths } from '../../../../shared/api-paths';
import { api, servicesOf } from '../../lib/api';
import { recordEndpointArea } from '../../lib/api-actions';
import { attempt } from '../../lib/api-errors';
import { readTokenResponse } from '../../lib/refresh-response';
import { identityFrom, type SessionIdentity } from '../auth';

// The fallbacks of the organisation calls, shown when the server gives no message.
export const organisationMessages = {
  fetchListFailed: 'Failed to fetch your organizations',
  fetchFailed: 'Failed to fetch the organization',
  fetchMembersFailed: 'Failed to fetch the members',
  fetchInvitationsFailed: 'Failed to fetch the invitations',
  createFailed: 'Could not create the organization',
  updateFailed: 'Could not save the organization',
  changeRoleFailed: 'Could not change the role',
  seatFailed: 'Could not change the seat',
  removeFailed: 'Could not remove the member',
  transferFailed: 'Could not transfer the ownership',
  leaveFailed: 'Could not leave the organization',
  inviteFailed: 'Could not send the invitation',
  resendFailed: 'Could not send the invitation again',
  revokeFailed: 'Could not revoke the invitation',
  quoteFailed: 'Could not price the seats',
  buySeatsFailed: 'Could not buy the seats',
  previewFailed: 'This invitation link does not work',
  acceptFailed: 'Could not join the organization',
  signUpFailed: 'Could not create the account',
} as const;

type OrganisationId = { organisationId: string };
type MemberId = OrganisationId & { userId: string };
type InvitationId = OrganisationId & { invitationId: string };

/** A change inside one organisation: its page and the list (roles, seats and counts show there). */
const changed = ({ organisationId }: OrganisationId) => [
  { type: 'Organisation' as const, id: organisationId },
  { type: 'Organisation' as const, id: 'LIST' },
];

/**
 * The customer's organisations: the list, one organisation's members, invitations and seats, the
 * owner's and admins' changes, and the invitation link's preview, acceptance and sign-up.
 */
export const organisationsApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /organisations: every organisation the caller belongs to, with their role and seats. */
      getOrganisations: build.query<Organisation[], void>({
        query: () => ({ url: organisationsApiPaths.list }),
        extraOptions: { fallback: organisationMessages.fetchListFailed },
        providesTags: [{ type: 'Organisation', id: 'LIST' }],
      }),
      getOrganisation: build.query<Organisation, string>({
        query: (organisationId) => ({ url: pathWith(organisationsApiPaths.detail, { organisationId }) }),
        extraOptions: { fallback: organisationMessages.fetchFailed },
        providesTags: (_answer, _error, organisationId) => [{ type: 'Organisation', id: organisationId }],
      }),
      getMembers: build.query<OrganisationMember[], string>({
        query: (organisationId) => ({ url: pathWith(organisationsApiPaths.members, { organisationId }) }),
        extraOptions: { fallback: organisationMessages.fetchMembersFailed },
        providesTags: (_answer, _error, organisationId) => [{ type: 'Organisation', id: organisationId }],
      }),
      /** Owners and admins only: members are refused the invitations. */
      getInvitations: build.query<Invitation[], string>({
        query: (organisationId) => ({
          url: pathWith(organisationsApiPaths.invitations, { organisationId }),
        }),
        extraOptions: { fallback: organisationMessages.fetchInvitationsFailed },
        providesTags: (_answer, _error, organisationId) => [{ type: 'Organisation', id: organisationId }],
      }),
      createOrganisation: build.mutation<Organisation, CreateOrganisationBody>({
        query: (body) => ({ url: organisationsApiPaths.list, method: 'POST', body }),
        extraOptions: { fallback: organisationMessages.createFailed },
        invalidatesTags: [{ type: 'Organisation', id: 'LIST' }],
      }),
      updateOrganisation: build.mutation<Organisation, OrganisationId & UpdateOrganisationBody>({
        query: ({ organisationId, ...body }) => ({
          url: pathWith(organisationsApiPaths.detail, { organisationId }),
          method: 'PATCH',
          body,
        }),
        extraOptions: { fallback: organisationMessages.updateFailed },
        invalidatesTags: (_answer, _error, arg) => changed(arg),
      }),
      changeMemberRole: build.mutation<OrganisationMember, MemberId & { role: AssignableOrganisationRole }>({
        query: ({ organisationId, userId, role }) => ({
          url: pathWith(organisationsApiPaths.member, { organisationId, userId }),
          method: 'PATCH',
          body: { role },
        }),
        extraOptions: { fallback: organisationMessages.changeRoleFailed },
        invalidatesTags: (_answer, _error, arg) => changed(arg),
      }),
      /** Assigning takes a free seat; taking it back ends the member's machines on it. */
      setMemberSeat: build.mutation<OrganisationMember, MemberId & { assigned: boolean }>({
        query: ({ organisationId, userId, assigned }) => ({
          url: pathWith(organisationsApiPaths.memberSeat, { organisationId, userId }),
          method: assigned ? 'PUT' : 'DELETE',
        }),
        extraOptions: { fallback: organisationMessages.seatFailed },
        invalidatesTags: (_answer, _error, arg) => [...changed(arg), 'License'],
      }),
      removeMember: build.mutation<null, MemberId>({
        query: ({ organisationId, userId }) => ({
          url: pathWith(organisationsApiPaths.member, { organisationId, userId }),
          method: 'DELETE',
        }),
        extraOptions: { fallback: organisationMessages.removeFailed },
        invalidatesTags: (_answer, _error, arg) => [...changed(arg), 'License'],
      }),
      transferOwnership: build.mutation<Organisation, MemberId>({
        query: ({ organisationId, userId }) => ({
          url: pathWith(organisationsApiPaths.transferOwnership, { organisationId }),
          method: 'POST',
          body: { user_id: userId },
        }),
        extraOptions: { fallback: organisationMessages.transferFailed },
        invalidatesTags: (_answer, _error, arg) => [...changed(arg), 'License'],
      }),
      leaveOrganisation: build.mutation<null, OrganisationId>({
        query: ({ organisationId }) => ({
          url: pathWith(organisationsApiPaths.leave, { organisationId }),
          method: 'POST',
        }),
        extraOptions: { fallback: organisationMessages.leaveFailed },
        invalidatesTags: (_answer, _error, arg) => [...changed(arg), 'License'],
      }),
      sendInvitation: build.mutation<Invitation, OrganisationId & InviteMemberBody>({
        query: ({ organisationId, ...body }) => ({
          url: pathWith(organisationsApiPaths.invitations, { organisationId }),
          method: 'POST',
          body,
        }),
        extraOptions: { fallback: organisationMessages.inviteFailed },
        invalidatesTags: (_answer, _error, arg) => changed(arg),
      }),
      /** A fresh link and expiry: the one mailed before stops working. */
      resendInvitation: build.mutation<Invitation, InvitationId>({
        query: ({ organisationId, invitationId }) => ({
          url: pathWith(organisationsApiPaths.resendInvitation, { organisationId, invitationId }),
          method: 'POST',
        }),
        extraOptions: { fallback: organisationMessages.resendFailed },
        invalidatesTags: (_answer, _error, arg) => changed(arg),
      }),
      revokeInvitation: build.mutation<Invitation, InvitationId>({
        query: ({ organisationId, invitationId }) => ({
          url: pathWith(organisationsApiPaths.invitation, { organisationId, invitationId }),
          method: 'DELETE',
        }),
        extraOptions: { fallback: organisationMessages.revokeFailed },
        invalidatesTags: (_answer, _error, arg) => changed(arg),
      }),
      /** What a new total of seats costs: now (prorated) and at each later charge. Changes nothing. */
      quoteSeats: build.mutation<SeatQuote, OrganisationId & { seats: number }>({
        query: ({ organisationId, seats }) => ({
          url: pathWith(organisationsApiPaths.seatQuote, { organisationId }),
          method: 'POST',
          body: { seats },
        }),
        extraOptions: { fallback: organisationMessages.quoteFailed },
      }),
      buySeats: build.mutation<SeatPurchase, OrganisationId & { seats: number }>({
        query: ({ organisationId, seats }) => ({
          url: pathWith(organisationsApiPaths.seats, { organisationId }),
          method: 'POST',
          body: { seats },
        }),
        extraOptions: { fallback: organisationMessages.buySeatsFailed },
        invalidatesTags: (_answer, _error, arg) => [
          ...changed(arg),
          'License',
          'Subscription',
          'Payment',
          'Invoice',
        ],
      }),
      /** Open to anyone holding the link: the token is the credential. */
      previewInvitation: build.query<InvitationPreview, string>({
        query: (token) => ({ url: invitationsApiPaths.preview, method: 'POST', body: { token } }),
        extraOptions: { fallback: organisationMessages.previewFailed },
        // A link used a moment ago must not show as still open.
        keepUnusedDataFor: 0,
      }),
      /** The signed-in account joins with the invitation's role and a seat. */
      acceptInvitation: build.mutation<{ organisation: Organisation; message: string }, string>({
        query: (token) => ({ url: invitationsApiPaths.accept, method: 'POST', body: { token } }),
        extraOptions: { fallback: organisationMessages.acceptFailed },
        invalidatesTags: [{ type: 'Organisation', id: 'LIST' }, 'License'],
      }),
      /**
       * An invitee without an account creates one from the link. It answers as a sign-in does: the
       * tokens are kept as a sign-in keeps them, and the answer is who signed in, for the page to
       * complete the sign-in with (`tokensRefreshed`).
       */
      invitationSignUp: build.mutation<
        SessionIdentity,
        { token: string; password: string; full_name?: string }
      >({
        queryFn: (body, queryApi) => {
          const services = servicesOf(queryApi);
          return attempt(
            async () => {
              const { data } = await services.client.http.post<unknown>(invitationsApiPaths.signUp, body);
              const tokens = readTokenResponse(data, authMessages.noTokenReceived);
              await services.tokens.save(tokens);
              return identityFrom(services, tokens.accessToken, tokens.user);
            },
            { fallback: organisationMessages.signUpFailed },
          );
        },
      }),
    };
    // Only this module's names: `organisationsApi.endpoints` also lists what other features injected.
    recordEndpointArea('organisations', Object.keys(endpoints));
    return endpoints;
  },
});

export const {
  useGetOrganisationsQuery,
  useGetOrganisationQuery,
  useGetMembersQuery,
  useGetInvitationsQuery,
  useCreateOrganisationMutation,
  useUpdateOrganisationMutation,
  useChangeMemberRoleMutation,
  useSetMemberSeatMutation,
  useRemoveMemberMutation,
  useTransferOwnershipMutation,
  useLeaveOrganisationMutation,
  useSendInvitationMutation,
  useResendInvitationMutation,
  useRevokeInvitationMutation,
  useQuoteSeatsMutation,
  useBuySeatsMutation,
  usePreviewInvitationQuery,
  useAcceptInvitationMutation,
  useInvitationSignUpMutation,
} = organisationsApi;
