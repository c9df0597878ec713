import type { MemberUsage, SetMemberCapsBody } from '../../../../shared/api/member-usage';
import type { OrganisationUsage } from '../../../../shared/api/organisation-usage';
import { pathWith } from '../../../../shared/routes';
import { organisationsApiPaths } from '../../../../shared/api-paths';
import { api } from '../../lib/api';
import { recordEndpointArea } from '../../lib/api-actions';

// The fallbacks of the organisation's usage calls, shown when the server gives no message.
export const organisationUsageMessages = {
  fetchUsageFailed: 'Failed to fetch the members’ usage',
  setCapsFailed: 'Could not save the caps',
} as const;

/** The organisation's pool of metered use and each member's share, for its owners and admins. */
export const organisationUsageApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /organisations/{id}/usage: owners and admins only. */
      getOrganisationUsage: build.query<OrganisationUsage, string>({
        query: (organisationId) => ({ url: pathWith(organisationsApiPaths.usage, { organisationId }) }),
        extraOptions: { fallback: organisationUsageMessages.fetchUsageFailed },
        providesTags: (_answer, _error, organisationId) => [{ type: 'Organisation', id: organisationId }],
      }),
      /** PUT /organisations/{id}/members/{userId}/usage-caps: a null cap removes it. */
      setMemberUsageCaps: build.mutation<
        MemberUsage,
        { organisationId: string; userId: string } & SetMemberCapsBody
      >({
        query: ({ organisationId, userId, caps }) => ({
          url: pathWith(organisationsApiPaths.memberUsageCaps, { organisationId, userId }),
          method: 'PUT',
          body: { caps },
        }),
        extraOptions: { fallback: organisationUsageMessages.setCapsFailed },
        // The member's own Usage page shows their cap too.
        invalidatesTags: (_answer, _error, { organisationId }) => [
          { type: 'Organisation', id: organisationId },
          'License',
        ],
      }),
    };
    recordEndpointArea('organisations', Object.keys(endpoints));
    return endpoints;
  },
});

export const { useGetOrganisationUsageQuery, useSetMemberUsageCapsMutation } = organisationUsageApi;
