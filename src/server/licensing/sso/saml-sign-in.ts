import type { CacheProvider, SAML } from '@node-saml/node-saml';
import {
  SSO_SIGN_IN_TTL_SECONDS,
  type SamlServiceProvider,
  type SsoRedirect,
} from '../../../shared/api/organisation-sso.js';
import { pathWith, API_BASE_PATH } from '../../../shared/routes.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { type Clock, isoAfterSeconds, isoNow } from '../../platform/clock.js';
import { randomToken, sha256 } from '../../platform/crypto.js';
import type { Db } from '../../platform/db/database.js';
import type { OrganisationSsoRow, SsoSignInRow } from '../../platform/db/tables-organisations.js';
import { notFound } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { findOrganisation } from '../organisations/repository.js';
import { type FederatedArrival, type ProviderClaims, refuse, SsoRefusal } from './federated-arrival.js';
import {
  answerSamlSignIn,
  findSsoSettings,
  findSsoSignIn,
  insertSsoSignIn,
  recordSamlAssertion,
  spendSsoSignIn,
} from './repository.js';
import { bindingColumns, type SsoBinding } from './desktop-binding.js';
import { pemOf } from './saml-metadata.js';
import type { SamlMetadataRefresh } from './saml-metadata-refresh.js';
import { descendantsOf as elementsOf, parseXml } from './xml-document.js';

const SAML_ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const SAML_PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
/** How far the identity provider's clock may be from ours. */
const CLOCK_SKEW_MS = 60_000;
const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

// The attributes identity providers commonly carry the address and the name in.
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailAddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const NAME_ATTRIBUTES = [
  'name',
  'displayName',
  'urn:oid:2.16.840.1.113730.3.1.241',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
];

/** Our service provider for an organisation: each its own entity id, so one's assertions fit no other. */
export function samlServiceProvider(publicUrl: string, organisationId: string): SamlServiceProvider {
  const base = `${publicUrl}${API_BASE_PATH}`;
  const metadataUrl = `${base}${pathWith(apiPaths.auth.ssoSamlMetadata, { organisationId })}`;
  return {
    entity_id: metadataUrl,
    acs_url: `${base}${pathWith(apiPaths.auth.ssoSamlAcs, { organisationId })}`,
    metadata_url: metadataUrl,
  };
}

/** node-saml and its XML stack, loaded at the first SAML sign-in rather than with every start. */
const nodeSaml = () => import('@node-saml/node-saml');

/** Why node-saml refused an answer, as the refusal's code (the log's reason) and its words. */
async function refusalOf(error: unknown, organisationId: string): Promise<SsoRefusal> {
  if (error instanceof (await nodeSaml()).SamlStatusError)
    return refuse('sso_provider_refused', `(${error.message})`, organisationId);
  const message = error instanceof Error ? error.message : 'unknown';
  const code: SamlRefusalCode | undefined = /signature/i.test(message)
    ? 'saml_signature_invalid'
    : /audience/i.test(message)
      ? 'saml_audience_mismatch'
      : /InResponseTo/i.test(message)
        ? 'saml_request_unknown'
        : /expired|not yet valid|subject confirmation/i.test(message)
          ? 'saml_assertion_expired'
          : undefined;
  return code
    ? samlRefusal(code, organisationId, `(${message})`)
    : refuse('saml_response_refused', `(${message})`, organisationId);
}

const samlRefusalMessages = {
  saml_signature_invalid:
    'The identity provider’s answer is not signed by the provider this organization set up.',
  saml_audience_mismatch: 'The identity provider’s answer was meant for another service.',
  saml_recipient_mismatch: 'The identity provider’s answer was sent for another address than this one.',
  saml_request_unknown: 'The identity provider’s answer was not for a sign-in started here. Start again.',
  saml_assertion_expired: 'The identity provider’s answer has expired or is not valid yet. Start again.',
  saml_issuer_mismatch: 'The identity provider’s answer comes from another provider than the one set up.',
} as const;
type SamlRefusalCode = keyof typeof samlRefusalMessages;
const samlRefusal = (code: SamlRefusalCode, organisationId: string, more?: string) =>
  new SsoRefusal(
    code,
    more ? `${samlRefusalMessages[code]} ${more}` : samlRefusalMessages[code],
    organisationId,
  );

/** A profile's attribute as strings (one value or many). */
function valuesOf(attributes: Record<string, unknown> | undefined, name: string): string[] {
  const value = attributes?.[name];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

export interface SamlSignInDeps {
  db: Db;
  clock: Clock;
  publicUrl: string;
  arrival: FederatedArrival;
  /** Reads a provider's metadata URL again when its certificate no longer verifies an answer. */
  metadata?: Pick<SamlMetadataRefresh, 'renewed'>;
}

/**
 * Signing in through an organisation's SAML identity provider, SP-initiated, with node-saml. The
 * AuthnRequest goes by HTTP-Redirect; its ID, the RelayState's hash and the browser's cookie are
 * kept server-side for ten minutes and one answer. The answer comes by HTTP-POST to the ACS: its
 * assertion must be signed by the provider's certificate, name our entity id as its audience, our
 * ACS as its recipient (and destination), the request we sent as its InResponseTo, be within its
 * dates (a minute's skew), come from the provider's entity id, and never have been accepted before
 * (its ID is kept in the database until it expires, so no instance takes it twice). The POST comes
 * from the provider's site, without our SameSite cookie, so what it said waits on the sign-in and
 * the browser is sent to the callback, where the cookie is checked and both protocols go on as one.
 */
export function createSamlSignIn({ db, clock, publicUrl, arrival, metadata }: SamlSignInDeps) {
  /** node-saml for the organisation's provider; `request` is the one AuthnRequest it may answer. */
  async function samlFor(
    settings: OrganisationSsoRow,
    request: { id: string; createdAt: string } | { capture: (id: string) => void },
  ): Promise<SAML> {
    const { SAML, ValidateInResponseTo } = await nodeSaml();
    const sp = samlServiceProvider(publicUrl, settings.organisation_id);
    // The sign-in's row is the request store: node-saml asks it whether InResponseTo names ours.
    const cacheProvider: CacheProvider = {
      saveAsync: async (key, value) => {
        if ('capture' in request) request.capture(key);
        return { value, createdAt: clock.now().getTime() };
      },
      getAsync: async (key) => ('id' in request && key === request.id ? request.createdAt : null),
      // The row is spent by the sign-in itself, whatever node-saml thinks of it.
      removeAsync: async () => null,
    };
    return new SAML({
      issuer: sp.entity_id,
      audience: sp.entity_id,
      callbackUrl: sp.acs_url,
      entryPoint: settings.saml_sso_url ?? '',
      idpCert: (JSON.parse(settings.saml_certificates ?? '[]') as string[]).map(pemOf),
      wantAssertionsSigned: true,
      // Most providers sign the assertion only; it is the assertion whose signature is required.
      wantAuthnResponseSigned: false,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: SSO_SIGN_IN_TTL_SECONDS * 1000,
      cacheProvider,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      identifierFormat: EMAIL_NAME_ID,
      disableRequestedAuthnContext: true,
    });
  }

  /**
   * The checks node-saml leaves to its caller: the assertion's issuer is the provider set up, its
   * bearer confirmation names our ACS as Recipient (and the response, when it says, as
   * Destination); its ID has not been accepted before.
   */
  async function ownChecks(settings: OrganisationSsoRow, assertionXml: string, responseXml: string) {
    const of = settings.organisation_id;
    const acs = samlServiceProvider(publicUrl, of).acs_url;
    const response = parseXml(responseXml).root;
    const destination = response?.getAttribute('Destination');
    if (response?.namespaceURI === SAML_PROTOCOL && destination && destination !== acs)
      throw samlRefusal('saml_recipient_mismatch', of, `(Destination ${destination})`);
    const assertion = parseXml(assertionXml).root;
    if (!assertion) throw refuse('saml_response_refused', '(no assertion)', of);
    const issuer = elementsOf(assertion, SAML_ASSERTION, 'Issuer')[0]?.textContent?.trim();
    if (issuer !== settings.issuer) throw samlRefusal('saml_issuer_mismatch', of, `(${issuer ?? 'none'})`);
    const confirmations = elementsOf(assertion, SAML_ASSERTION, 'SubjectConfirmationData');
    const recipients = confirmations.map((data) => data.getAttribute('Recipient'));
    if (recipients.length === 0 || recipients.some((recipient) => recipient !== acs))
      throw samlRefusal(
        'saml_recipient_mismatch',
        of,
        `(Recipient ${recipients.find((recipient) => recipient !== acs) ?? 'missing'})`,
      );
    const assertionId = assertion.getAttribute('ID');
    if (!assertionId) throw refuse('saml_response_refused', '(the assertion has no ID)', of);
    // Remembered until the latest of its dates (a minute's skew on), when it is refused by them.
    const ends = [...elementsOf(assertion, SAML_ASSERTION, 'Conditions'), ...confirmations]
      .map((element) => Date.parse(element.getAttribute('NotOnOrAfter') ?? ''))
      .filter((time) => Number.isFinite(time));
    const until =
      ends.length > 0
        ? Math.max(...ends) + CLOCK_SKEW_MS
        : clock.now().getTime() + SSO_SIGN_IN_TTL_SECONDS * 1000;
    const fresh = await recordSamlAssertion(db, {
      organisation_id: of,
      assertion_id: assertionId.slice(0, 200),
      accepted_at: isoNow(clock),
      expires_at: new Date(Math.max(until, clock.now().getTime())).toISOString(),
    });
    if (!fresh) throw refuse('saml_assertion_replayed', undefined, of);
  }

  /** The provider's answer verified: the claims it gives (address, name, groups under their attribute). */
  async function verifiedClaims(
    settings: OrganisationSsoRow,
    row: SsoSignInRow,
    samlResponse: string,
  ): Promise<ProviderClaims> {
    const validate = async (current: OrganisationSsoRow) =>
      (await samlFor(current, { id: row.nonce, createdAt: row.created_at })).validatePostResponseAsync({
        SAMLResponse: samlResponse,
      });
    let profile;
    try {
      ({ profile } = await validate(settings));
    } catch (error) {
      const refusal = await refusalOf(error, settings.organisation_id);
      // The provider may have rotated its key: its metadata URL is read again, and the answer
      // checked once more against the certificates it now publishes (saml-metadata-refresh.ts).
      const renewed =
        refusal.code === 'saml_signature_invalid' ? await metadata?.renewed(settings) : undefined;
      if (!renewed) throw refusal;
      try {
        ({ profile } = await validate(renewed));
      } catch (again) {
        throw await refusalOf(again, settings.organisation_id);
      }
    }
    if (!profile) throw refuse('saml_response_refused', '(no assertion)', settings.organisation_id);
    await ownChecks(settings, profile.getAssertionXml?.() ?? '', profile.getSamlResponseXml?.() ?? '');
    const attributes = profile.attributes as Record<string, unknown> | undefined;
    const email =
      EMAIL_ATTRIBUTES.flatMap((name) => valuesOf(attributes, name))[0] ??
      (profile.nameIDFormat === EMAIL_NAME_ID ? profile.nameID : undefined);
    const name = NAME_ATTRIBUTES.flatMap((attribute) => valuesOf(attributes, attribute))[0];
    return {
      ...(email ? { email } : {}),
      ...(name ? { name } : {}),
      ...(settings.group_claim ? { [settings.group_claim]: valuesOf(attributes, settings.group_claim) } : {}),
    };
  }

  return {
    /** Our service provider's metadata for the organisation, for its identity provider to read. */
    async metadata(organisationId: string): Promise<string> {
      if (!(await findOrganisation(db, organisationId)))
        throw notFound('organisation_not_found', 'There is no such organization.');
      const sp = samlServiceProvider(publicUrl, organisationId);
      return (await nodeSaml()).generateServiceProviderMetadata({
        issuer: sp.entity_id,
        callbackUrl: sp.acs_url,
        identifierFormat: EMAIL_NAME_ID,
        wantAssertionsSigned: true,
      });
    },

    /** The AuthnRequest as a URL at the provider (HTTP-Redirect), its ID and RelayState kept here. */
    async begin(
      settings: OrganisationSsoRow,
      binding: SsoBinding,
      options: { purpose: 'sign_in' | 'test'; loginHint?: string; startedBy?: string },
    ): Promise<SsoRedirect> {
      const relayState = randomToken();
      let requestId: string | undefined;
      const saml = await samlFor(settings, { capture: (id) => (requestId = id) });
      const url = await saml.getAuthorizeUrlAsync(relayState, undefined, {
        // Not part of SAML, but several providers take it to skip asking for the address.
        ...(options.loginHint ? { additionalParams: { login_hint: options.loginHint } } : {}),
      });
      if (!requestId) throw new Error('node-saml made an AuthnRequest without an ID');
      await insertSsoSignIn(db, {
        state_hash: sha256(relayState),
        organisation_id: settings.organisation_id,
        purpose: options.purpose,
        nonce: requestId,
        code_verifier: '',
        ...bindingColumns(binding),
        started_by: options.startedBy ?? null,
        created_at: isoNow(clock),
        expires_at: isoAfterSeconds(clock, SSO_SIGN_IN_TTL_SECONDS),
        used_at: null,
        handoff_hash: null,
        handoff_expires_at: null,
        user_id: null,
        outcome: null,
        protocol: 'saml',
        saml_identity: null,
      });
      return { authorization_url: url };
    },

    /**
     * The provider's answer posted to the organisation's ACS: where to send the browser. Verified,
     * it waits on the sign-in and the browser goes to the callback with the RelayState; refused,
     * the sign-in is spent, the refusal logged, and the browser told as the callback tells it.
     */
    async acs(
      organisationId: string,
      form: { SAMLResponse?: string | undefined; RelayState?: string | undefined },
      meta: RequestMeta,
    ): Promise<string> {
      let row: SsoSignInRow | undefined;
      try {
        const relayState = form.RelayState;
        // The RelayState names nothing but a sign-in of ours, for this organisation's ACS.
        const found = relayState ? await findSsoSignIn(db, sha256(relayState)) : undefined;
        if (!found || found.protocol !== 'saml' || found.organisation_id !== organisationId)
          throw refuse('sso_state_invalid', undefined, found?.organisation_id ?? null);
        // A sign-in answered, spent or expired is left as it is (a replay rewrites no test's result).
        if (found.used_at !== null || found.saml_identity !== null)
          throw refuse('sso_state_used', undefined, organisationId);
        if (found.expires_at <= isoNow(clock)) throw refuse('sso_state_invalid', undefined, organisationId);
        row = found;
        if (!form.SAMLResponse) throw refuse('saml_response_refused', '(no SAMLResponse)', organisationId);
        const settings = await findSsoSettings(db, organisationId);
        if (!settings || settings.protocol !== 'saml') throw refuse('sso_not_configured');
        const claims = await verifiedClaims(settings, row, form.SAMLResponse);
        if (!(await answerSamlSignIn(db, row.state_hash, JSON.stringify(claims), isoNow(clock))))
          throw refuse('sso_state_used', undefined, organisationId);
        const callback = new URL(`${publicUrl}${API_BASE_PATH}${apiPaths.auth.ssoCallback}`);
        callback.searchParams.set('state', relayState!);
        return callback.href;
      } catch (error) {
        // A refused answer ends its sign-in: nothing may be posted for it again.
        if (row) await spendSsoSignIn(db, row.state_hash, isoNow(clock));
        return arrival.refused(error, row, meta);
      }
    },
  };
}

export type SamlSignIn = ReturnType<typeof createSamlSignIn>;
