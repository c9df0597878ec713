import { type Clock, isoNow } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { OrganisationSsoRow } from '../../platform/db/tables-organisations.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { markSamlMetadataRead, setSamlCertificates } from './repository.js';
import { fetchIdpMetadata, parseIdpMetadata } from './saml-metadata.js';

/**
 * A SAML provider whose metadata came from a URL rotates its signing key there. When its
 * certificate no longer verifies an answer, the metadata is read again and the new certificates
 * kept, so a rotation does not lock the organisation out. At most once per
 * {@link METADATA_REREAD_AFTER_SECONDS} per organisation: forged answers do not make the server
 * fetch on every post. The entity id must stay the one set up (another provider is not taken on
 * silently), and a URL that cannot be read keeps what was kept.
 */
export const METADATA_REREAD_AFTER_SECONDS = 5 * 60;

export function createSamlMetadataRefresh({
  db,
  clock,
  allowHttp,
}: {
  db: Db;
  clock: Clock;
  allowHttp: boolean;
}) {
  return {
    /** The settings with the certificates read again, or undefined when they were not (or did not change). */
    async renewed(settings: OrganisationSsoRow): Promise<OrganisationSsoRow | undefined> {
      const url = settings.saml_metadata_url;
      if (url === null) return undefined;
      const readAt = Date.parse(settings.saml_metadata_read_at ?? '');
      if (Number.isFinite(readAt) && clock.now().getTime() - readAt < METADATA_REREAD_AFTER_SECONDS * 1000)
        return undefined;
      const now = isoNow(clock);
      // Counted as a read whatever it gives: the next one waits its turn.
      await markSamlMetadataRead(db, settings.organisation_id, now);
      let certificates: string[];
      let ssoUrl: string;
      try {
        const idp = parseIdpMetadata(await fetchIdpMetadata(url, { allowHttp }), { allowHttp });
        if (idp.entityId !== settings.issuer) return undefined;
        ({ certificates, ssoUrl } = idp);
      } catch {
        return undefined;
      }
      const kept = JSON.stringify(certificates);
      if (kept === settings.saml_certificates) return undefined;
      await db.transaction().execute(async (trx) => {
        await setSamlCertificates(trx, settings.organisation_id, {
          saml_certificates: kept,
          saml_sso_url: ssoUrl,
        });
        // A change of the settings like any other, made by no one: the provider published it.
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.ssoSettingsChanged,
          severity: 'warning',
          userId: null,
          actorId: null,
          details: {
            organisation_id: settings.organisation_id,
            protocol: 'saml',
            reason: 'metadata_reread',
            metadata_url: url,
            certificates: certificates.length,
          },
        });
      });
      return { ...settings, saml_certificates: kept, saml_sso_url: ssoUrl, saml_metadata_read_at: now };
    },
  };
}

export type SamlMetadataRefresh = ReturnType<typeof createSamlMetadataRefresh>;
