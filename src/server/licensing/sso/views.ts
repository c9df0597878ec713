import {
  type OrganisationOidc,
  type OrganisationSaml,
  type OrganisationSso,
  type SsoTestResult,
  ssoRoleRuleSchema,
  ssoTestResultSchema,
} from '../../../shared/api/organisation-sso.js';
import type { AssignableOrganisationRole } from '../../../shared/api/organisations.js';
import type { OrganisationSsoRow } from '../../platform/db/tables-organisations.js';
import { certificateView } from './saml-metadata.js';

export type SsoRoleRule = { group: string; role: AssignableOrganisationRole };

export const roleRulesOf = (row: OrganisationSsoRow): SsoRoleRule[] =>
  ssoRoleRuleSchema.array().parse(JSON.parse(row.role_mapping));

const lastTestOf = (row: OrganisationSsoRow): SsoTestResult | null =>
  row.last_test_result === null ? null : ssoTestResultSchema.parse(JSON.parse(row.last_test_result));

export const ssoView = (row: OrganisationSsoRow, redirectUri: string): OrganisationSso =>
  row.protocol === 'saml' ? samlView(row) : oidcView(row, redirectUri);

const samlView = (row: OrganisationSsoRow): OrganisationSaml => ({
  protocol: 'saml',
  idp_entity_id: row.issuer,
  idp_sso_url: row.saml_sso_url ?? '',
  idp_certificates: (JSON.parse(row.saml_certificates ?? '[]') as string[]).map(certificateView),
  metadata_url: row.saml_metadata_url,
  group_attribute: row.group_claim,
  role_mapping: roleRulesOf(row),
  require_sso: row.require_sso === 1,
  updated_at: row.updated_at,
  last_test: lastTestOf(row),
});

const oidcView = (row: OrganisationSsoRow, redirectUri: string): OrganisationOidc => ({
  protocol: 'oidc',
  issuer: row.issuer,
  client_id: row.client_id,
  client_secret_set: true,
  scopes: row.scopes,
  group_claim: row.group_claim,
  role_mapping: roleRulesOf(row),
  require_sso: row.require_sso === 1,
  redirect_uri: redirectUri,
  updated_at: row.updated_at,
  last_test: lastTestOf(row),
});

/** The groups an ID token lists under `claim`: an array of strings, or one string. */
export function groupsOf(claims: Record<string, unknown>, claim: string | null): string[] {
  if (claim === null) return [];
  const value = claims[claim];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/** The role of the first rule whose group the person is in; member when none is. */
export const roleFor = (
  rules: readonly SsoRoleRule[],
  groups: readonly string[],
): AssignableOrganisationRole => rules.find((rule) => groups.includes(rule.group))?.role ?? 'member';

/** The part of an address after its last @, lower case. */
export const domainOf = (email: string): string => email.slice(email.lastIndexOf('@') + 1).toLowerCase();
