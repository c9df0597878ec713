import {
  type OrganisationSamlBody,
  type OrganisationSsoAnswer,
  type OrganisationSsoBody,
  organisationSamlBodySchema,
  organisationSsoBodySchema,
} from '../../../shared/api/organisation-sso.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';
import type { OrganisationSsoTable } from '../../platform/db/tables-organisations.js';
import { badRequest, conflict, notFound } from '../../platform/http-error.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { assertManages, organisationAccess } from '../organisations/access.js';
import type { OrganisationActor } from '../organisations/service.js';
import type { OidcClients } from './oidc-client.js';
import { countVerifiedDomains, deleteSsoSettings, findSsoSettings, upsertSsoSettings } from './repository.js';
import { fetchIdpMetadata, type IdpMetadata, parseIdpMetadata } from './saml-metadata.js';
import { samlServiceProvider } from './saml-sign-in.js';
import type { SecretCipher } from './secret-cipher.js';
import { ssoView } from './views.js';

export interface SsoSettingsDeps {
  db: Db;
  clock: Clock;
  cipher: SecretCipher;
  clients: OidcClients;
  /** The callback to register with the provider. */
  redirectUri: string;
  /** The portal's public URL: our SAML service provider's entity id and ACS are under it. */
  publicUrl: string;
}

export const ssoNotConfigured = () =>
  notFound('sso_not_configured', 'This organization has not set up single sign-on.');

const domainNotVerified = () =>
  conflict(
    'domain_not_verified',
    'Verify one of the organization’s mail domains first: single sign-on signs in the people of verified domains.',
  );

/**
 * An organisation's provider, OpenID Connect or SAML, set by its owner or admins once it holds a
 * verified domain; one at a time, each save replacing the other. An OpenID provider is asked for
 * its discovery document before anything is saved, so a wrong issuer is told at once; the client
 * secret is kept encrypted and never answered. A SAML provider is read from its metadata, pasted
 * or fetched once, and what it says (entity id, sign-in URL, certificates) is shown back.
 */
export function createSsoSettings({ db, clock, cipher, clients, redirectUri, publicUrl }: SsoSettingsDeps) {
  return {
    async get(organisationId: string, caller: UserRow): Promise<OrganisationSsoAnswer> {
      assertManages(await organisationAccess(db, organisationId, caller));
      const row = await findSsoSettings(db, organisationId);
      return {
        sso: row ? ssoView(row, redirectUri) : null,
        redirect_uri: redirectUri,
        saml: samlServiceProvider(publicUrl, organisationId),
      };
    },

    /** Sets up (or changes) the organisation's SAML identity provider, in place of any other. */
    async putSaml(
      organisationId: string,
      actor: OrganisationActor,
      input: OrganisationSamlBody,
    ): Promise<OrganisationSsoAnswer> {
      const body = organisationSamlBodySchema.parse(input);
      assertManages(await organisationAccess(db, organisationId, actor.user));
      if ((await countVerifiedDomains(db, organisationId)) === 0) throw domainNotVerified();
      const existing = await findSsoSettings(db, organisationId);
      const allowHttp = clients.allowHttp;
      let idp: IdpMetadata;
      if (body.metadata_xml !== undefined) idp = parseIdpMetadata(body.metadata_xml, { allowHttp });
      else if (body.metadata_url !== undefined)
        // Read now, outside any transaction (it is the network); again when its certificate no
        // longer verifies an answer (saml-metadata-refresh.ts).
        idp = parseIdpMetadata(await fetchIdpMetadata(body.metadata_url, { allowHttp }), { allowHttp });
      else if (existing?.protocol === 'saml' && existing.saml_sso_url !== null)
        idp = {
          entityId: existing.issuer,
          ssoUrl: existing.saml_sso_url,
          certificates: JSON.parse(existing.saml_certificates ?? '[]') as string[],
        };
      else
        throw badRequest(
          'saml_metadata_required',
          'Give the identity provider’s metadata: paste its XML or give the URL it is published at.',
        );
      const now = isoNow(clock);
      const metadataUrl =
        body.metadata_url ?? (body.metadata_xml === undefined ? (existing?.saml_metadata_url ?? null) : null);
      const row: OrganisationSsoTable = {
        organisation_id: organisationId,
        protocol: 'saml',
        issuer: idp.entityId,
        // Only OpenID Connect uses these.
        client_id: '',
        client_secret_encrypted: '',
        scopes: '',
        group_claim: body.group_attribute,
        role_mapping: JSON.stringify(body.role_mapping),
        require_sso: body.require_sso ? 1 : 0,
        saml_sso_url: idp.ssoUrl,
        saml_certificates: JSON.stringify(idp.certificates),
        saml_metadata_url: metadataUrl,
        // Read now (a URL given), or as before when saved again without new metadata.
        saml_metadata_read_at:
          body.metadata_url !== undefined
            ? now
            : metadataUrl !== null
              ? (existing?.saml_metadata_read_at ?? now)
              : null,
        created_at: existing?.created_at ?? now,
        updated_at: now,
        updated_by: actor.user.id,
        last_test_at: existing?.protocol === 'saml' ? existing.last_test_at : null,
        last_test_result: existing?.protocol === 'saml' ? existing.last_test_result : null,
      };
      await db.transaction().execute(async (trx) => {
        assertManages(await organisationAccess(trx, organisationId, actor.user));
        await upsertSsoSettings(trx, row);
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.ssoSettingsChanged,
          severity: 'warning',
          userId: actor.user.id,
          actorId: actor.user.id,
          meta: actor.meta,
          details: {
            organisation_id: organisationId,
            protocol: 'saml',
            idp_entity_id: idp.entityId,
            idp_sso_url: idp.ssoUrl,
            certificates: idp.certificates.length,
            metadata_url: metadataUrl,
            group_attribute: body.group_attribute,
            role_rules: body.role_mapping.length,
            require_sso: body.require_sso,
            created: existing === undefined,
          },
        });
      });
      return this.get(organisationId, actor.user);
    },

    async put(
      organisationId: string,
      actor: OrganisationActor,
      input: OrganisationSsoBody,
    ): Promise<OrganisationSsoAnswer> {
      const body = organisationSsoBodySchema.parse(input);
      assertManages(await organisationAccess(db, organisationId, actor.user));
      if ((await countVerifiedDomains(db, organisationId)) === 0) throw domainNotVerified();
      if (body.issuer.startsWith('http:') && !clients.allowHttp)
        throw badRequest('issuer_not_https', 'The issuer must be an https:// URL.');
      const existing = await findSsoSettings(db, organisationId);
      // A SAML provider replaced by an OpenID one has no secret to keep.
      const keptSecret = existing?.protocol === 'oidc' ? existing.client_secret_encrypted : undefined;
      const secret = body.client_secret ?? (keptSecret ? cipher.decrypt(keptSecret) : undefined);
      if (secret === undefined)
        throw badRequest(
          'client_secret_required',
          'Give the client secret the provider issued for this app.',
        );
      // The provider must answer before anything is kept (outside any transaction: it is the network).
      await clients.configure({ issuer: body.issuer, clientId: body.client_id, clientSecret: secret });
      const now = isoNow(clock);
      const row: OrganisationSsoTable = {
        organisation_id: organisationId,
        protocol: 'oidc',
        issuer: body.issuer,
        client_id: body.client_id,
        client_secret_encrypted: cipher.encrypt(secret),
        scopes: body.scopes,
        group_claim: body.group_claim,
        role_mapping: JSON.stringify(body.role_mapping),
        require_sso: body.require_sso ? 1 : 0,
        created_at: existing?.created_at ?? now,
        updated_at: now,
        updated_by: actor.user.id,
        saml_sso_url: null,
        saml_certificates: null,
        saml_metadata_url: null,
        saml_metadata_read_at: null,
        last_test_at: existing?.protocol === 'oidc' ? existing.last_test_at : null,
        last_test_result: existing?.protocol === 'oidc' ? existing.last_test_result : null,
      };
      await db.transaction().execute(async (trx) => {
        assertManages(await organisationAccess(trx, organisationId, actor.user));
        await upsertSsoSettings(trx, row);
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.ssoSettingsChanged,
          severity: 'warning',
          userId: actor.user.id,
          actorId: actor.user.id,
          meta: actor.meta,
          details: {
            organisation_id: organisationId,
            protocol: 'oidc',
            issuer: body.issuer,
            client_id: body.client_id,
            scopes: body.scopes,
            group_claim: body.group_claim,
            role_rules: body.role_mapping.length,
            require_sso: body.require_sso,
            secret_changed: body.client_secret !== undefined,
            created: existing === undefined,
          },
        });
      });
      return this.get(organisationId, actor.user);
    },

    async remove(organisationId: string, actor: OrganisationActor): Promise<void> {
      await db.transaction().execute(async (trx) => {
        assertManages(await organisationAccess(trx, organisationId, actor.user));
        if (!(await deleteSsoSettings(trx, organisationId))) throw ssoNotConfigured();
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.ssoSettingsRemoved,
          severity: 'warning',
          userId: actor.user.id,
          actorId: actor.user.id,
          meta: actor.meta,
          details: { organisation_id: organisationId },
        });
      });
    },
  };
}

export type SsoSettings = ReturnType<typeof createSsoSettings>;
