import { SCIM_MAX_PAGE, SCIM_SCHEMAS } from '../../../shared/api/scim.js';
import { SCIM_BASE_PATH } from '../../../shared/routes.js';

// What a SCIM client reads to learn this server (RFC 7643 §5–7): what it supports, the resource
// types it serves and the attributes it keeps of each.

export const serviceProviderConfig = (publicUrl: string) => ({
  schemas: [SCIM_SCHEMAS.serviceProviderConfig],
  documentationUri: `${publicUrl}/api/docs`,
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: SCIM_MAX_PAGE },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [
    {
      type: 'oauthbearertoken',
      name: 'Bearer token',
      description: 'The organization’s provisioning token, from its Provisioning settings in the portal',
      primary: true,
    },
  ],
  meta: {
    resourceType: 'ServiceProviderConfig',
    location: `${publicUrl}${SCIM_BASE_PATH}/ServiceProviderConfig`,
  },
});

const attribute = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: 'string',
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

const SCHEMAS = [
  {
    id: SCIM_SCHEMAS.user,
    name: 'User',
    description: 'A person provisioned into the organization: invited and given a seat while active',
    attributes: [
      attribute('userName', { required: true, uniqueness: 'server' }),
      attribute('externalId', { caseExact: true }),
      attribute('displayName'),
      attribute('name', {
        type: 'complex',
        subAttributes: [attribute('givenName'), attribute('familyName')],
      }),
      attribute('emails', {
        type: 'complex',
        multiValued: true,
        subAttributes: [attribute('value'), attribute('type'), attribute('primary', { type: 'boolean' })],
      }),
      attribute('active', { type: 'boolean' }),
      attribute('groups', { type: 'complex', multiValued: true, mutability: 'readOnly' }),
    ],
  },
  {
    id: SCIM_SCHEMAS.group,
    name: 'Group',
    description: 'A group of provisioned users; the owner maps a group to an organization role',
    attributes: [
      attribute('displayName', { required: true, uniqueness: 'server' }),
      attribute('externalId', { caseExact: true }),
      attribute('members', {
        type: 'complex',
        multiValued: true,
        subAttributes: [
          attribute('value', { caseExact: true }),
          attribute('display', { mutability: 'readOnly' }),
        ],
      }),
    ],
  },
];

export const schemas = (publicUrl: string) =>
  SCHEMAS.map((schema) => ({
    schemas: [SCIM_SCHEMAS.schema],
    ...schema,
    meta: { resourceType: 'Schema', location: `${publicUrl}${SCIM_BASE_PATH}/Schemas/${schema.id}` },
  }));

export const resourceTypes = (publicUrl: string) =>
  (['User', 'Group'] as const).map((name) => ({
    schemas: [SCIM_SCHEMAS.resourceType],
    id: name,
    name,
    endpoint: `/${name}s`,
    schema: name === 'User' ? SCIM_SCHEMAS.user : SCIM_SCHEMAS.group,
    meta: { resourceType: 'ResourceType', location: `${publicUrl}${SCIM_BASE_PATH}/ResourceTypes/${name}` },
  }));

export const listOf = <T>(resources: T[]) => ({
  schemas: [SCIM_SCHEMAS.listResponse],
  totalResults: resources.length,
  startIndex: 1,
  itemsPerPage: resources.length,
  Resources: resources,
});
