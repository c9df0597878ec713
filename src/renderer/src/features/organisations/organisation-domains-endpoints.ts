import type {
  AddOrganisationDomainBody,
  OrganisationDomain,
  OrganisationDomainList,
} from '../../../../shared/api/organisation-domains';
import { pathWith } from '../../../../shared/routes';
import { organisationsApiPaths } from '../../../../shared/api-paths';
import { api } from '../../lib/api';
import { recordEndpointArea } from '../../lib/api-actions';

// The fallbacks of the domain calls, shown when the server gives no message.
export const organisationDomainMessages = {
  fetchFailed: 'Failed to fetch the organization’s domains',
  addFailed: 'Could not add the domain',
  verifyFailed: 'Could not check DNS',
  removeFailed: 'Could not remove the domain',
} as const;

type DomainArgs = { organisationId: string; domainId: string };

/** The mail domains an organisation claims, each proven by a TXT record. */
export const organisationDomainsApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /organisations/{id}/domains: owners and admins. */
      getOrganisationDomains: build.query<OrganisationDomainList, string>({
        query: (organisationId) => ({ url: pathWith(organisationsApiPaths.domains, { organisationId }) }),
        extraOptions: { fallback: organisationDomainMessages.fetchFailed },
        providesTags: (_answer, _error, organisationId) => [{ type: 'Organisation', id: organisationId }],
      }),
      /** POST /organisations/{id}/domains: the owner claims one. */
      addOrganisationDomain: build.mutation<
        OrganisationDomain,
        { organisationId: string } & AddOrganisationDomainBody
      >({
        query: ({ organisationId, domain }) => ({
          url: pathWith(organisationsApiPaths.domains, { organisationId }),
          method: 'POST',
          body: { domain },
        }),
        extraOptions: { fallback: organisationDomainMessages.addFailed },
        invalidatesTags: (_answer, _error, { organisationId }) => [
          { type: 'Organisation', id: organisationId },
        ],
      }),
      /** POST /organisations/{id}/domains/{domainId}/verify: asks DNS for the record. */
      verifyOrganisationDomain: build.mutation<OrganisationDomain, DomainArgs>({
        query: ({ organisationId, domainId }) => ({
          url: pathWith(organisationsApiPaths.verifyDomain, { organisationId, domainId }),
          method: 'POST',
        }),
        extraOptions: { fallback: organisationDomainMessages.verifyFailed },
        invalidatesTags: (_answer, _error, { organisationId }) => [
          { type: 'Organisation', id: organisationId },
        ],
      }),
      /** DELETE /organisations/{id}/domains/{domainId}. */
      removeOrganisationDomain: build.mutation<null, DomainArgs>({
        query: ({ organisationId, domainId }) => ({
          url: pathWith(organisationsApiPaths.domain, { organisationId, domainId }),
          method: 'DELETE',
        }),
        extraOptions: { fallback: organisationDomainMessages.removeFailed },
        invalidatesTags: (_answer, _error, { organisationId }) => [
          { type: 'Organisation', id: organisationId },
        ],
      }),
    };
    recordEndpointArea('organisations', Object.keys(endpoints));
    return endpoints;
  },
});

export const {
  useGetOrganisationDomainsQuery,
  useAddOrganisationDomainMutation,
  useVerifyOrganisationDomainMutation,
  useRemoveOrganisationDomainMutation,
} = organisationDomainsApi;
