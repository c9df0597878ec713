import type {
  ProvisioningGroupRoleBody,
  ProvisioningSettings,
  ScimTokenCreated,
} from '../../../../shared/api/scim';
import { pathWith } from '../../../../shared/routes';
import { organisationsApiPaths } from '../../../../shared/api-paths';
import { api } from '../../lib/api';
import { recordEndpointArea } from '../../lib/api-actions';

// The fallbacks of the provisioning calls, shown when the server gives no message.
export const provisioningMessages = {
  fetchFailed: 'Failed to fetch the provisioning settings',
  createFailed: 'Could not create the token',
  rotateFailed: 'Could not rotate the token',
  revokeFailed: 'Could not revoke the token',
  mapFailed: 'Could not change the group’s role',
} as const;

const invalidates = (_answer: unknown, _error: unknown, { organisationId }: { organisationId: string }) => [
  { type: 'Organisation' as const, id: organisationId },
];

/** SCIM provisioning of an organisation: its token and the roles its pushed groups give. */
export const provisioningApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /organisations/{id}/provisioning: owners and admins. */
      getProvisioning: build.query<ProvisioningSettings, string>({
        query: (organisationId) => ({
          url: pathWith(organisationsApiPaths.provisioning, { organisationId }),
        }),
        extraOptions: { fallback: provisioningMessages.fetchFailed },
        providesTags: (_answer, _error, organisationId) => [{ type: 'Organisation', id: organisationId }],
      }),
      /** POST /organisations/{id}/provisioning/token: the owner; the answer holds the token once. */
      createProvisioningToken: build.mutation<ScimTokenCreated, { organisationId: string }>({
        query: ({ organisationId }) => ({
          url: pathWith(organisationsApiPaths.provisioningToken, { organisationId }),
          method: 'POST',
        }),
        extraOptions: { fallback: provisioningMessages.createFailed },
        invalidatesTags: invalidates,
      }),
      /** POST /organisations/{id}/provisioning/token/rotate: the old token stops at once. */
      rotateProvisioningToken: build.mutation<ScimTokenCreated, { organisationId: string }>({
        query: ({ organisationId }) => ({
          url: pathWith(organisationsApiPaths.rotateProvisioningToken, { organisationId }),
          method: 'POST',
        }),
        extraOptions: { fallback: provisioningMessages.rotateFailed },
        invalidatesTags: invalidates,
      }),
      /** DELETE /organisations/{id}/provisioning/token. */
      revokeProvisioningToken: build.mutation<null, { organisationId: string }>({
        query: ({ organisationId }) => ({
          url: pathWith(organisationsApiPaths.provisioningToken, { organisationId }),
          method: 'DELETE',
        }),
        extraOptions: { fallback: provisioningMessages.revokeFailed },
        invalidatesTags: invalidates,
      }),
      /** PUT /organisations/{id}/provisioning/groups/{groupId}/role: the owner maps a group. */
      mapProvisioningGroup: build.mutation<
        ProvisioningSettings,
        { organisationId: string; groupId: string } & ProvisioningGroupRoleBody
      >({
        query: ({ organisationId, groupId, role }) => ({
          url: pathWith(organisationsApiPaths.provisioningGroupRole, { organisationId, groupId }),
          method: 'PUT',
          body: { role },
        }),
        extraOptions: { fallback: provisioningMessages.mapFailed },
        invalidatesTags: invalidates,
      }),
    };
    recordEndpointArea('organisations', Object.keys(endpoints));
    return endpoints;
  },
});

export const {
  useGetProvisioningQuery,
  useCreateProvisioningTokenMutation,
  useRotateProvisioningTokenMutation,
  useRevokeProvisioningTokenMutation,
  useMapProvisioningGroupMutation,
} = provisioningApi;
