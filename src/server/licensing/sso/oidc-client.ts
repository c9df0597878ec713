import * as oidc from 'openid-client';
import { sha256 } from '../../platform/crypto.js';
import { HttpError } from '../../platform/http-error.js';

/** An organisation's provider as the client library needs it. */
export interface OidcProviderSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** How long a provider's discovery document is trusted before it is read again. */
const DISCOVERY_TTL_MS = 10 * 60_000;
const DISCOVERY_TIMEOUT_SECONDS = 10;

export const providerUnreachable = (issuer: string, cause: unknown) =>
  new HttpError(
    502,
    'sso_provider_unreachable',
    `The identity provider at ${issuer} could not be reached or did not describe itself ` +
      `(${cause instanceof Error ? cause.message : 'no answer'}). Check its issuer URL.`,
  );

/**
 * The providers' configurations through openid-client (a certified relying party): discovered
 * once per issuer, client and secret, then reused for ten minutes. http:// issuers only where
 * SSO_ALLOW_HTTP_ISSUERS says so (a provider on this machine while testing).
 */
export function createOidcClients({ allowHttp, now }: { allowHttp: boolean; now: () => number }) {
  const known = new Map<string, { config: oidc.Configuration; until: number }>();
  return {
    allowHttp,
    async configure(settings: OidcProviderSettings): Promise<oidc.Configuration> {
      const key = sha256(`${settings.issuer}\n${settings.clientId}\n${settings.clientSecret}`);
      const cached = known.get(key);
      if (cached && cached.until > now()) return cached.config;
      let config: oidc.Configuration;
      try {
        config = await oidc.discovery(
          new URL(settings.issuer),
          settings.clientId,
          undefined,
          oidc.ClientSecretBasic(settings.clientSecret),
          {
            timeout: DISCOVERY_TIMEOUT_SECONDS,
            ...(allowHttp ? { execute: [oidc.allowInsecureRequests] } : {}),
          },
        );
      } catch (error) {
        throw providerUnreachable(settings.issuer, error);
      }
      known.set(key, { config, until: now() + DISCOVERY_TTL_MS });
      return config;
    },
  };
}

export type OidcClients = ReturnType<typeof createOidcClients>;
