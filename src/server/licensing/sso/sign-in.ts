import * as oidc from 'openid-client';
import {
  SSO_SIGN_IN_TTL_SECONDS,
  type SsoDiscovery,
  type SsoRedirect,
  type SsoCompleteAnswer,
  type SsoStartBody,
} from '../../../shared/api/organisation-sso.js';
import { type Clock, isoAfterSeconds, isoNow } from '../../platform/clock.js';
import { sha256 } from '../../platform/crypto.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { OrganisationSsoRow, SsoSignInRow } from '../../platform/db/tables-organisations.js';
import { forbidden, notFound, unauthorized } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { type AuthService, findUserById, type SsoRequirement } from '../../identity/index.js';
import { assertManages, organisationAccess } from '../organisations/access.js';
import type { OrganisationActor } from '../organisations/service.js';
import {
  type FederatedArrival,
  type ProviderClaims,
  refusalMessages,
  refuse,
  type SsoOutcome,
} from './federated-arrival.js';
import type { OidcClients } from './oidc-client.js';
import {
  findSsoByVerifiedDomain,
  findSsoSettings,
  findSsoSignIn,
  insertSsoSignIn,
  spendSsoSignIn,
  takeSsoHandoff,
} from './repository.js';
import type { SamlSignIn } from './saml-sign-in.js';
import type { SecretCipher } from './secret-cipher.js';
import { bindingColumns, type SsoBinding, verifierMatches } from './desktop-binding.js';
import { ssoNotConfigured } from './settings.js';
import { domainOf } from './views.js';

export interface SsoSignInDeps {
  db: Db;
  clock: Clock;
  cipher: SecretCipher;
  clients: OidcClients;
  /** The callback registered with the providers. */
  redirectUri: string;
  /** What every protocol does once the provider's answer is verified. */
  arrival: FederatedArrival;
  /** The SAML half: its AuthnRequest (its answer comes back here verified, through the ACS). */
  saml: Pick<SamlSignIn, 'begin'>;
  /** The session every sign-in ends with. */
  auth: Pick<AuthService, 'federatedSignIn'>;
}

/** The claims a SAML answer gave, kept by the ACS until the browser that started came back. */
function samlClaimsOf(row: SsoSignInRow): ProviderClaims {
  if (row.saml_identity === null) throw refuse('saml_response_refused', '(no answer came back)');
  return JSON.parse(row.saml_identity) as ProviderClaims;
}

/** Whether openid-client's refusal (or what it wraps) is of the ID token's nonce. */
function aboutNonce(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && typeof cause === 'object' && depth < 4; depth++) {
    const { claim, message } = cause as { claim?: unknown; message?: unknown };
    if (claim === 'nonce' || (typeof message === 'string' && message.includes('"nonce"'))) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Signing in through an organisation's provider; for OpenID Connect, all of it. Starting keeps the state's hash, the nonce
 * and the PKCE verifier server-side for ten minutes and one callback, tied to the browser that
 * started (a cookie). The callback checks all of them through openid-client, and that the address
 * is at a domain the organisation verified; a first sign-in makes the account and the membership
 * (with a seat while one is free, the role from the groups). The browser then goes back to the
 * portal with a one-time code, which the portal trades for a session as any sign-in answers it.
 * A SAML provider is started through `saml` and its answer, verified at the ACS, comes back to the
 * same callback: from there on both protocols are one (`arrival`).
 */
export function createSsoSignIn(deps: SsoSignInDeps) {
  const { db, clock, cipher, clients, redirectUri, arrival } = deps;

  const configure = (settings: OrganisationSsoRow) =>
    clients.configure({
      issuer: settings.issuer,
      clientId: settings.client_id,
      clientSecret: cipher.decrypt(settings.client_secret_encrypted),
    });

  async function begin(
    settings: OrganisationSsoRow,
    binding: SsoBinding,
    options: { purpose: 'sign_in' | 'test'; loginHint?: string; startedBy?: string },
  ): Promise<SsoRedirect> {
    if (settings.protocol === 'saml') return deps.saml.begin(settings, binding, options);
    return beginOidc(settings, binding, options);
  }

  async function beginOidc(
    settings: OrganisationSsoRow,
    binding: SsoBinding,
    options: { purpose: 'sign_in' | 'test'; loginHint?: string; startedBy?: string },
  ): Promise<SsoRedirect> {
    const config = await configure(settings);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const verifier = oidc.randomPKCECodeVerifier();
    await insertSsoSignIn(db, {
      state_hash: sha256(state),
      organisation_id: settings.organisation_id,
      purpose: options.purpose,
      nonce,
      code_verifier: verifier,
      ...bindingColumns(binding),
      started_by: options.startedBy ?? null,
      created_at: isoNow(clock),
      expires_at: isoAfterSeconds(clock, SSO_SIGN_IN_TTL_SECONDS),
      used_at: null,
      handoff_hash: null,
      handoff_expires_at: null,
      user_id: null,
      outcome: null,
      protocol: 'oidc',
      saml_identity: null,
    });
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: settings.scopes,
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...(options.loginHint ? { login_hint: options.loginHint } : {}),
    });
    return { authorization_url: url.href };
  }

  /**
   * The sign-in the state names, spent for this callback, or why it may not go on; `found` is told
   * of a live sign-in before it is checked further, so a test's refusal goes back to its page.
   */
  async function spend(
    state: string | undefined,
    browserSecret: string | undefined,
    found: (row: SsoSignInRow) => void,
  ): Promise<SsoSignInRow> {
    if (!state) throw refuse('sso_state_invalid');
    const row = await findSsoSignIn(db, sha256(state));
    if (!row) throw refuse('sso_state_invalid');
    const of = row.organisation_id;
    // A sign-in spent or expired is left as it is (a replay rewrites no test's result), as at SAML's ACS.
    if (row.used_at !== null) throw refuse('sso_state_used', undefined, of);
    if (row.expires_at <= isoNow(clock)) throw refuse('sso_state_invalid', undefined, of);
    found(row);
    // The desktop app's sign-in has no cookie in the system browser: its code is bound to the app
    // instead, and only the holder of the verifier can trade it (desktop-binding.ts).
    const bound =
      row.desktop_challenge !== null ||
      (browserSecret !== undefined && sha256(browserSecret) === row.browser_hash);
    if (!bound) throw refuse('sso_browser_mismatch', undefined, of);
    if (!(await spendSsoSignIn(db, row.state_hash, isoNow(clock))))
      throw refuse('sso_state_used', undefined, of);
    return row;
  }

  /** The provider's answer checked by openid-client: code, state, PKCE, issuer, ID token and nonce. */
  async function verifiedClaims(
    settings: OrganisationSsoRow,
    row: SsoSignInRow,
    callbackQuery: URLSearchParams,
  ): Promise<Record<string, unknown>> {
    const config = await configure(settings);
    const current = new URL(redirectUri);
    current.search = callbackQuery.toString();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: row.code_verifier,
        expectedState: callbackQuery.get('state') ?? undefined,
        expectedNonce: row.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : 'unknown';
      if (aboutNonce(error)) throw refuse('sso_nonce_mismatch');
      throw refuse('sso_token_refused', `(${reason})`);
    }
    const claims = tokens.claims();
    if (!claims) throw refuse('sso_token_refused', '(no ID token)');
    return claims as Record<string, unknown>;
  }

  return {
    /** Whether an address signs in through an organisation's provider (for the e-mail-first page). */
    async discover(email: string): Promise<SsoDiscovery> {
      const found = await findSsoByVerifiedDomain(db, domainOf(email));
      // An unknown domain and a domain without a provider are answered alike.
      if (!found || found.issuer === null) return { sso: false, required: false };
      return { sso: true, required: found.require_sso === 1 };
    },

    /**
     * For the password sign-in: the organisation that requires SSO of this address, if one does
     * (read `within` the caller's transaction, which on SQLite holds the one connection).
     */
    async requirementFor(email: string, within: DbOrTransaction = db): Promise<SsoRequirement | null> {
      const found = await findSsoByVerifiedDomain(within, domainOf(email));
      if (!found || found.issuer === null || found.require_sso !== 1) return null;
      return { organisationId: found.organisation_id, organisationName: found.organisation_name };
    },

    /** `browserSecret` ties a web sign-in to its browser; the desktop app's is bound by `body.desktop`. */
    async start(body: SsoStartBody, browserSecret: () => string): Promise<SsoRedirect> {
      const organisationId =
        body.organisation_id ??
        (body.email ? (await findSsoByVerifiedDomain(db, domainOf(body.email)))?.organisation_id : undefined);
      const settings = organisationId ? await findSsoSettings(db, organisationId) : undefined;
      if (!settings)
        throw notFound(
          'sso_not_configured',
          body.email
            ? `No organization signs in the addresses at ${domainOf(body.email)} through single sign-on.`
            : 'This organization has not set up single sign-on.',
        );
      return begin(settings, body.desktop ? { desktop: body.desktop } : { browserSecret: browserSecret() }, {
        purpose: 'sign_in',
        ...(body.email ? { loginHint: body.email } : {}),
      });
    },

    /** A manager's round trip through the provider that signs nobody in and reports what came back. */
    async startTest(organisationId: string, actor: OrganisationActor, browserSecret: string) {
      assertManages(await organisationAccess(db, organisationId, actor.user));
      const settings = await findSsoSettings(db, organisationId);
      if (!settings) throw ssoNotConfigured();
      return begin(settings, { browserSecret }, { purpose: 'test', startedBy: actor.user.id });
    },

    /**
     * The provider's redirect back: where to send the browser. A refusal goes to the sign-in page
     * with its code (it is a navigation, so never a JSON error), and is a security event.
     */
    async callback(query: URLSearchParams, browserSecret: string | undefined, meta: RequestMeta) {
      let row: SsoSignInRow | undefined;
      try {
        row = await spend(query.get('state') ?? undefined, browserSecret, (named) => (row = named));
        const error = query.get('error');
        if (error) throw refuse('sso_provider_refused', `(${error})`);
        const settings = await findSsoSettings(db, row.organisation_id);
        if (!settings) throw refuse('sso_not_configured');
        const claims =
          row.protocol === 'saml' ? samlClaimsOf(row) : await verifiedClaims(settings, row, query);
        return await arrival.arrive(settings, row, claims, meta, settings.issuer);
      } catch (error) {
        return arrival.refused(error, row, meta);
      }
    },

    /** The portal trades the callback's one-time code for its session, as any sign-in answers. */
    async complete(
      code: string,
      verifier: string | undefined,
      meta: RequestMeta,
    ): Promise<SsoCompleteAnswer> {
      // A code the desktop app's sign-in came back with works only with the app's verifier: a
      // process that read it off the loopback, or the browser's history, cannot trade it.
      const row = await takeSsoHandoff(db, sha256(code), isoNow(clock), (found) =>
        found.desktop_challenge === null ? true : verifierMatches(verifier, found.desktop_challenge),
      );
      const invalid = () =>
        unauthorized('sso_code_invalid', 'This sign-in has expired or was already used. Start again.');
      if (!row || row.user_id === null || row.outcome === null) throw invalid();
      const user = await findUserById(db, row.user_id);
      if (!user) throw invalid();
      if (user.status !== 'active') throw forbidden('account_disabled', refusalMessages.account_disabled);
      const outcome = JSON.parse(row.outcome) as SsoOutcome;
      // The account's own second factor, when it has one, is still asked (docs/security.md).
      const answer = await deps.auth.federatedSignIn(user, meta);
      const message = !outcome.has_seat
        ? `You are signed in to ${outcome.organisation_name}, but no seat is free: ask its administrators for one.`
        : outcome.joined
          ? outcome.floating
            ? `You joined ${outcome.organisation_name}: the app takes one of its floating seats while it runs.`
            : `You joined ${outcome.organisation_name} and have a seat.`
          : `Signed in through ${outcome.organisation_name}.`;
      // Added to the answer itself: the session's binding cookie is attached to this very object.
      return Object.assign(answer, {
        sso: {
          organisation_id: outcome.organisation_id,
          organisation_name: outcome.organisation_name,
          joined: outcome.joined,
          has_seat: outcome.has_seat,
          message,
        },
      });
    },
  };
}

export type SsoSignInService = ReturnType<typeof createSsoSignIn>;
