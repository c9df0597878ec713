import { z } from 'zod';
import { isoDateTimeSchema } from './common.js';
import { organisationParamsSchema } from './organisations.js';

// The portal's side of SCIM provisioning (the organisation's token and its groups' roles), and the
// SCIM 2.0 messages identity providers send (RFC 7643/7644), as loose as Entra ID and Okta send them.

export const SCIM_SCHEMAS = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  enterpriseUser: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** How a SCIM token starts: a secret scanner (and a person) recognises it by it. */
export const SCIM_TOKEN_PREFIX = 'scim_';
/** The most resources one page of a SCIM list holds, whatever `count` asks. */
export const SCIM_MAX_PAGE = 1000;

export const scimRoleSchema = z.enum(['admin', 'member']).describe('The organization role the group gives');

export const scimTokenSummarySchema = z.object({
  id: z.string(),
  last_four: z.string().describe('The last four characters, to tell tokens apart'),
  created_at: isoDateTimeSchema,
  last_used_at: isoDateTimeSchema.nullable(),
});

export const provisioningGroupSchema = z.object({
  id: z.string(),
  display_name: z.string(),
  members: z.number().int().describe('How many provisioned users the group holds'),
  role: scimRoleSchema.nullable().describe('null: the group changes no role'),
});

export const provisioningSettingsSchema = z
  .object({
    base_url: z
      .string()
      .describe('The SCIM base URL to paste into the identity provider (Tenant URL in Entra ID)'),
    token: scimTokenSummarySchema.nullable().describe('null until the owner creates one'),
    users: z.number().int().describe('Users the identity provider provisioned'),
    active_users: z.number().int(),
    groups: z.array(provisioningGroupSchema),
  })
  .meta({ id: 'ProvisioningSettings' });
export type ProvisioningSettings = z.infer<typeof provisioningSettingsSchema>;

export const scimTokenCreatedSchema = scimTokenSummarySchema
  .extend({ token: z.string().describe('The bearer token: shown this once, only its hash is kept') })
  .meta({ id: 'ScimTokenCreated' });
export type ScimTokenCreated = z.infer<typeof scimTokenCreatedSchema>;

export const provisioningGroupParamsSchema = organisationParamsSchema.extend({
  groupId: z.uuid('Not a group id'),
});
export const provisioningGroupRoleBodySchema = z.strictObject({ role: scimRoleSchema.nullable() });
export type ProvisioningGroupRoleBody = z.infer<typeof provisioningGroupRoleBodySchema>;

// --- SCIM messages (documented loosely: the service reads them attribute by attribute) ---

const scimMetaSchema = z.object({
  resourceType: z.string(),
  created: isoDateTimeSchema,
  lastModified: isoDateTimeSchema,
  location: z.string(),
});

export const scimUserSchema = z
  .object({
    schemas: z.array(z.string()),
    id: z.string(),
    externalId: z.string().optional(),
    userName: z.string(),
    active: z.boolean(),
    displayName: z.string().optional(),
    name: z.object({ givenName: z.string().optional(), familyName: z.string().optional() }).optional(),
    emails: z.array(z.object({ value: z.string(), type: z.string(), primary: z.boolean() })),
    groups: z.array(z.object({ value: z.string(), display: z.string() })).optional(),
    meta: scimMetaSchema,
  })
  .describe('A SCIM User (urn:ietf:params:scim:schemas:core:2.0:User)')
  .meta({ id: 'ScimUser' });
export type ScimUser = z.infer<typeof scimUserSchema>;

export const scimGroupSchema = z
  .object({
    schemas: z.array(z.string()),
    id: z.string(),
    externalId: z.string().optional(),
    displayName: z.string(),
    members: z.array(z.object({ value: z.string(), display: z.string().optional() })).optional(),
    meta: scimMetaSchema,
  })
  .describe('A SCIM Group (urn:ietf:params:scim:schemas:core:2.0:Group)')
  .meta({ id: 'ScimGroup' });
export type ScimGroup = z.infer<typeof scimGroupSchema>;

export const scimListSchema = (resource: z.ZodType) =>
  z.object({
    schemas: z.array(z.string()),
    totalResults: z.number().int(),
    startIndex: z.number().int(),
    itemsPerPage: z.number().int(),
    Resources: z.array(resource),
  });

export const scimErrorSchema = z
  .object({
    schemas: z.array(z.string()),
    status: z.string().describe('The HTTP status, as a string (RFC 7644 §3.12)'),
    scimType: z.string().optional(),
    detail: z.string(),
    message: z.string(),
    code: z.string(),
  })
  .describe('A SCIM error (urn:ietf:params:scim:api:messages:2.0:Error), also carrying message and code')
  .meta({ id: 'ScimError' });

/** A resource as a client sends it: read attribute by attribute, unknown attributes ignored. */
export const scimResourceBodySchema = z.record(z.string(), z.unknown()).describe('A SCIM resource');
export const scimPatchBodySchema = z
  .record(z.string(), z.unknown())
  .describe('A SCIM PatchOp: { schemas, Operations: [{ op, path?, value? }] }');

export const scimListQuerySchema = z.object({
  filter: z.string().max(1000).optional().describe('e.g. userName eq "ada@example.com"'),
  startIndex: z.string().max(12).optional().describe('1-based'),
  count: z.string().max(12).optional(),
  attributes: z.string().max(1000).optional(),
  excludedAttributes: z.string().max(1000).optional(),
});
export const scimResourceQuerySchema = scimListQuerySchema.pick({
  attributes: true,
  excludedAttributes: true,
});
export const scimIdParamsSchema = z.object({ id: z.string().max(200) });
