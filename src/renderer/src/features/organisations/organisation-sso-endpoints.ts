import type {
  OrganisationSamlBody,
  OrganisationSsoAnswer,
  OrganisationSsoBody,
  SsoRedirect,
} from '../../../../shared/api/organisation-sso';
import { pathWith } from '../../../../shared/routes';
import { organisationsApiPaths } from '../../../../shared/api-paths';
import { api } from '../../lib/api';
import { recordEndpointArea } from '../../lib/api-actions';

// The fallbacks of the single sign-on calls, shown when the server gives no message.
export const organisationSsoMessages = {
  fetchFailed: 'Failed to fetch the single sign-on settings',
  saveFailed: 'Could not save the single sign-on settings',
  removeFailed: 'Could not remove single sign-on',
  testFailed: 'Could not start the test sign-in',
} as const;

const invalidates = (_answer: unknown, _error: unknown, { organisationId }: { organisationId: string }) => [
  { type: 'Organisation' as const, id: organisationId },
];

/** An organisation's provider (OpenID Connect or SAML): its settings and the owner's test sign-in. */
export const organisationSsoApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /organisations/{id}/sso: owners and admins; the secret is never answered. */
      getOrganisationSso: build.query<OrganisationSsoAnswer, string>({
        query: (organisationId) => ({ url: pathWith(organisationsApiPaths.sso, { organisationId }) }),
        extraOptions: { fallback: organisationSsoMessages.fetchFailed },
        providesTags: (_answer, _error, organisationId) => [{ type: 'Organisation', id: organisationId }],
      }),
      /** PUT /organisations/{id}/sso: the provider's discovery document is read before it is saved. */
      setOrganisationSso: build.mutation<
        OrganisationSsoAnswer,
        { organisationId: string; body: OrganisationSsoBody }
      >({
        query: ({ organisationId, body }) => ({
          url: pathWith(organisationsApiPaths.sso, { organisationId }),
          method: 'PUT',
          body,
        }),
        extraOptions: { fallback: organisationSsoMessages.saveFailed },
        invalidatesTags: invalidates,
      }),
      /** PUT /organisations/{id}/sso/saml: the SAML provider from its metadata, pasted or read from its URL. */
      setOrganisationSaml: build.mutation<
        OrganisationSsoAnswer,
        { organisationId: string; body: OrganisationSamlBody }
      >({
        query: ({ organisationId, body }) => ({
          url: pathWith(organisationsApiPaths.ssoSaml, { organisationId }),
          method: 'PUT',
          body,
        }),
        extraOptions: { fallback: organisationSsoMessages.saveFailed },
        invalidatesTags: invalidates,
      }),
      /** DELETE /organisations/{id}/sso: passwords work again. */
      removeOrganisationSso: build.mutation<null, { organisationId: string }>({
        query: ({ organisationId }) => ({
          url: pathWith(organisationsApiPaths.sso, { organisationId }),
          method: 'DELETE',
        }),
        extraOptions: { fallback: organisationSsoMessages.removeFailed },
        invalidatesTags: invalidates,
      }),
      /** POST /organisations/{id}/sso/test: where to send the browser for a sign-in that signs nobody in. */
      testOrganisationSso: build.mutation<SsoRedirect, { organisationId: string }>({
        query: ({ organisationId }) => ({
          url: pathWith(organisationsApiPaths.ssoTest, { organisationId }),
          method: 'POST',
        }),
        extraOptions: { fallback: organisationSsoMessages.testFailed },
      }),
    };
    recordEndpointArea('organisations', Object.keys(endpoints));
    return endpoints;
  },
});

export const {
  useGetOrganisationSsoQuery,
  useSetOrganisationSsoMutation,
  useSetOrganisationSamlMutation,
  useRemoveOrganisationSsoMutation,
  useTestOrganisationSsoMutation,
} = organisationSsoApi;
