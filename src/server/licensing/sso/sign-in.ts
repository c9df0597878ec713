import * as oidc from 'openid-client';
import {
  SSO_ERROR_FRAGMENT,
  SSO_HANDOFF_FRAGMENT,
  SSO_HANDOFF_TTL_SECONDS,
  SSO_SIGN_IN_TTL_SECONDS,
  type SsoDiscovery,
  type SsoRedirect,
  type SsoSignIn,
  type SsoStartBody,
  type SsoTestResult,
} from '../../../shared/api/organisation-sso.js';
import type { AssignableOrganisationRole } from '../../../shared/api/organisations.js';
import { type Clock, isoAfterSeconds, isoNow } from '../../platform/clock.js';
import { randomToken, sha256 } from '../../platform/crypto.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';
import type { OrganisationSsoRow, SsoSignInRow } from '../../platform/db/tables-organisations.js';
import { forbidden, HttpError, notFound, unauthorized } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import {
  type AuthService,
  createInvitedAccount,
  findUserByEmail,
  findUserById,
  type PasswordHasher,
  type SsoRequirement,
} from '../../identity/index.js';
import type { LicensingEvents } from '../events.js';
import { assertManages, organisationAccess } from '../organisations/access.js';
import { findOrganisation, insertMember, updateMember } from '../organisations/repository.js';
import {
  countSeatsTaken,
  findMembership,
  findOrganisationLicense,
  lockOrganisation,
} from '../organisations/seats-repository.js';
import { type OrganisationActor, recordOrganisationChange } from '../organisations/service.js';
import type { OidcClients } from './oidc-client.js';
import {
  findSsoByVerifiedDomain,
  findSsoSettings,
  findSsoSignIn,
  holdsVerifiedDomain,
  insertSsoSignIn,
  recordSsoTest,
  setSsoHandoff,
  spendSsoSignIn,
  takeSsoHandoff,
} from './repository.js';
import type { SecretCipher } from './secret-cipher.js';
import { ssoNotConfigured } from './settings.js';
import { domainOf, groupsOf, roleFor, roleRulesOf } from './views.js';

export interface SsoSignInDeps {
  db: Db;
  clock: Clock;
  events: LicensingEvents;
  cipher: SecretCipher;
  clients: OidcClients;
  /** The callback registered with the providers. */
  redirectUri: string;
  publicUrl: string;
  passwords: PasswordHasher;
  /** Accounts made on a first sign-in, and the session every sign-in ends with. */
  auth: Pick<AuthService, 'newAccountRow' | 'startSession'>;
}

/** What the hand-over code's sign-in did, kept until the portal trades the code. */
interface SsoOutcome {
  organisation_id: string;
  organisation_name: string;
  joined: boolean;
  has_seat: boolean;
  role: string;
}

/** A refused callback: the browser goes back to the portal with the code, and the log says why. */
class SsoRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** The organisation whose sign-in it was, when the state named one. */
    readonly organisationId: string | null = null,
  ) {
    super(message);
  }
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

const refusalMessages = {
  sso_state_invalid: 'This sign-in was not started here or has expired. Start again.',
  sso_state_used: 'This sign-in was already completed. Start again.',
  sso_browser_mismatch: 'This sign-in was started in another browser. Start again from this one.',
  sso_provider_refused: 'Your identity provider did not sign you in.',
  sso_nonce_mismatch: 'The identity provider’s answer was not for this sign-in. Start again.',
  sso_token_refused: 'The identity provider’s answer could not be verified. Start again.',
  sso_no_email: 'Your identity provider did not say your e-mail address.',
  sso_email_unverified: 'Your identity provider has not verified your e-mail address.',
  sso_domain_mismatch: 'Your e-mail address is not at a domain this organization has verified.',
  sso_not_configured: 'This organization no longer signs in through single sign-on.',
  account_disabled: 'This account is disabled. Contact support.',
} as const;
type RefusalCode = keyof typeof refusalMessages;
const refuse = (code: RefusalCode, more?: string, organisationId: string | null = null) =>
  new SsoRefusal(code, more ? `${refusalMessages[code]} ${more}` : refusalMessages[code], organisationId);

/**
 * Signing in through an organisation's OpenID provider. Starting keeps the state's hash, the nonce
 * and the PKCE verifier server-side for ten minutes and one callback, tied to the browser that
 * started (a cookie). The callback checks all of them through openid-client, and that the address
 * is at a domain the organisation verified; a first sign-in makes the account and the membership
 * (with a seat while one is free, the role from the groups). The browser then goes back to the
 * portal with a one-time code, which the portal trades for a session as any sign-in answers it.
 */
export function createSsoSignIn(deps: SsoSignInDeps) {
  const { db, clock, events, cipher, clients, redirectUri, publicUrl } = deps;

  const configure = (settings: OrganisationSsoRow) =>
    clients.configure({
      issuer: settings.issuer,
      clientId: settings.client_id,
      clientSecret: cipher.decrypt(settings.client_secret_encrypted),
    });

  async function begin(
    settings: OrganisationSsoRow,
    browserSecret: string,
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
      browser_hash: sha256(browserSecret),
      started_by: options.startedBy ?? null,
      created_at: isoNow(clock),
      expires_at: isoAfterSeconds(clock, SSO_SIGN_IN_TTL_SECONDS),
      used_at: null,
      handoff_hash: null,
      handoff_expires_at: null,
      user_id: null,
      outcome: null,
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

  /** The sign-in the state names, spent for this callback, or why it may not go on. */
  async function spend(state: string | undefined, browserSecret: string | undefined): Promise<SsoSignInRow> {
    if (!state) throw refuse('sso_state_invalid');
    const row = await findSsoSignIn(db, sha256(state));
    if (!row) throw refuse('sso_state_invalid');
    const of = row.organisation_id;
    if (row.used_at !== null) throw refuse('sso_state_used', undefined, of);
    if (row.expires_at <= isoNow(clock)) throw refuse('sso_state_invalid', undefined, of);
    if (browserSecret === undefined || sha256(browserSecret) !== row.browser_hash)
      throw refuse('sso_browser_mismatch', undefined, of);
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

  async function checkedIdentity(settings: OrganisationSsoRow, claims: Record<string, unknown>) {
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    if (!email.includes('@')) throw refuse('sso_no_email');
    if (claims.email_verified === false) throw refuse('sso_email_unverified');
    if (!(await holdsVerifiedDomain(db, settings.organisation_id, domainOf(email))))
      throw refuse('sso_domain_mismatch');
    const groups = groupsOf(claims, settings.group_claim);
    const name = typeof claims.name === 'string' ? claims.name.slice(0, 200) : null;
    return { email, groups, name, role: roleFor(roleRulesOf(settings), groups) };
  }

  /** The account of the address, made on its first sign-in (the provider proved the address). */
  async function accountFor(email: string, name: string | null, meta: RequestMeta): Promise<UserRow> {
    const found = await findUserByEmail(db, email);
    if (found) return found;
    // A password nobody knows: the account signs in through its provider (or resets one).
    const user = deps.auth.newAccountRow(
      { email, role: 'user', fullName: name, verified: true },
      await deps.passwords.hash(randomToken()),
    );
    try {
      await db.transaction().execute(async (trx) => {
        await createInvitedAccount(trx, user);
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.userRegistered,
          severity: 'info',
          userId: user.id,
          meta,
          details: { via: 'sso' },
        });
      });
      return user;
    } catch (error) {
      // A second sign-in of the same person made it meanwhile.
      const made = await findUserByEmail(db, email);
      if (made) return made;
      throw error;
    }
  }

  /**
   * Joins the person with the mapped role, and a seat while one is free (pending invitations keep
   * theirs). A member signing in again takes the role their groups map to now, when the provider
   * sends groups (`remap`): the provider is where people change teams. The owner keeps theirs.
   */
  async function membershipFor(
    organisationId: string,
    user: UserRow,
    role: AssignableOrganisationRole,
    meta: RequestMeta,
    remap: boolean,
  ): Promise<SsoOutcome> {
    return db.transaction().execute(async (trx) => {
      await lockOrganisation(trx, organisationId);
      const organisation = await findOrganisation(trx, organisationId);
      if (!organisation) throw refuse('sso_not_configured');
      const membership = await findMembership(trx, organisationId, user.id);
      const base = { organisation_id: organisation.id, organisation_name: organisation.name };
      if (membership) {
        const changes = remap && membership.role !== 'owner' && membership.role !== role;
        if (changes) {
          await updateMember(trx, organisationId, user.id, { role });
          await recordOrganisationChange(trx, clock, events, {
            type: securityEventTypes.organisationRoleChanged,
            actor: { user, meta },
            userId: user.id,
            organisation,
            details: { from: membership.role, to: role, via: 'sso' },
          });
        }
        return {
          ...base,
          joined: false,
          has_seat: membership.seat_assigned_at !== null,
          role: changes ? role : membership.role,
        };
      }
      const license = await findOrganisationLicense(trx, organisationId);
      const now = isoNow(clock);
      const { held, pending } = await countSeatsTaken(trx, organisationId, now);
      const hasSeat = license !== undefined && held + pending < (license.seats ?? 0);
      await insertMember(trx, {
        organisation_id: organisationId,
        user_id: user.id,
        role,
        seat_assigned_at: hasSeat ? now : null,
        joined_at: now,
      });
      await recordOrganisationChange(trx, clock, events, {
        type: securityEventTypes.organisationMemberJoined,
        actor: { user, meta },
        userId: user.id,
        organisation,
        details: { via: 'sso', role, has_seat: hasSeat },
        webhook: { type: 'organisation.member_joined', data: { user_id: user.id, role, has_seat: hasSeat } },
        told: { joined: { member: user, role, seats: license?.seats ?? 0 } },
      });
      return { ...base, joined: true, has_seat: hasSeat, role };
    });
  }

  const portal = (path: string, fragment: Record<string, string>) =>
    `${publicUrl}${path}#${new URLSearchParams(fragment).toString()}`;

  async function recordRefusal(
    refusal: SsoRefusal,
    organisationId: string | null,
    meta: RequestMeta,
    actorId: string | null,
  ) {
    await recordSecurityEvent(db, clock, {
      type: securityEventTypes.ssoSignInRefused,
      severity: 'warning',
      userId: actorId,
      actorId,
      meta,
      details: { organisation_id: organisationId, reason: refusal.code },
    });
  }

  async function finishTest(row: SsoSignInRow, result: Omit<SsoTestResult, 'at'>, meta: RequestMeta) {
    const at = isoNow(clock);
    await db.transaction().execute(async (trx) => {
      await recordSsoTest(trx, row.organisation_id, at, JSON.stringify({ ...result, at }));
      await recordSecurityEvent(trx, clock, {
        type: securityEventTypes.ssoTestSignIn,
        severity: 'info',
        userId: row.started_by,
        actorId: row.started_by,
        meta,
        details: { organisation_id: row.organisation_id, ok: result.ok, email: result.email },
      });
    });
    return portal(`/organisations/${row.organisation_id}`, { sso_test: result.ok ? 'ok' : 'failed' });
  }

  return {
    /** Whether an address signs in through an organisation's provider (for the e-mail-first page). */
    async discover(email: string): Promise<SsoDiscovery> {
      const found = await findSsoByVerifiedDomain(db, domainOf(email));
      if (!found || found.issuer === null)
        return { sso: false, organisation_id: null, organisation_name: null, required: false };
      return {
        sso: true,
        organisation_id: found.organisation_id,
        organisation_name: found.organisation_name,
        required: found.require_sso === 1,
      };
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

    async start(body: SsoStartBody, browserSecret: string): Promise<SsoRedirect> {
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
      return begin(settings, browserSecret, {
        purpose: 'sign_in',
        ...(body.email ? { loginHint: body.email } : {}),
      });
    },

    /** A manager's round trip through the provider that signs nobody in and reports what came back. */
    async startTest(organisationId: string, actor: OrganisationActor, browserSecret: string) {
      assertManages(await organisationAccess(db, organisationId, actor.user));
      const settings = await findSsoSettings(db, organisationId);
      if (!settings) throw ssoNotConfigured();
      return begin(settings, browserSecret, { purpose: 'test', startedBy: actor.user.id });
    },

    /**
     * The provider's redirect back: where to send the browser. A refusal goes to the sign-in page
     * with its code (it is a navigation, so never a JSON error), and is a security event.
     */
    async callback(query: URLSearchParams, browserSecret: string | undefined, meta: RequestMeta) {
      let row: SsoSignInRow | undefined;
      try {
        row = await spend(query.get('state') ?? undefined, browserSecret);
        const error = query.get('error');
        if (error) throw refuse('sso_provider_refused', `(${error})`);
        const settings = await findSsoSettings(db, row.organisation_id);
        if (!settings) throw refuse('sso_not_configured');
        const claims = await verifiedClaims(settings, row, query);
        if (row.purpose === 'test') {
          // What came back is reported, the domain check included, and nobody is signed in.
          const email = typeof claims.email === 'string' ? claims.email : null;
          const groups = groupsOf(claims, settings.group_claim);
          try {
            await checkedIdentity(settings, claims);
          } catch (refusal) {
            if (!(refusal instanceof SsoRefusal)) throw refusal;
            return finishTest(row, { ok: false, message: refusal.message, email, groups, role: null }, meta);
          }
          const role = roleFor(roleRulesOf(settings), groups);
          return finishTest(
            row,
            { ok: true, message: `Signed in as ${email} through ${settings.issuer}.`, email, groups, role },
            meta,
          );
        }
        const identity = await checkedIdentity(settings, claims);
        const user = await accountFor(identity.email, identity.name, meta);
        if (user.status !== 'active') throw refuse('account_disabled');
        const outcome = await membershipFor(
          settings.organisation_id,
          user,
          identity.role,
          meta,
          settings.group_claim !== null,
        );
        const handoff = randomToken();
        await db.transaction().execute(async (trx) => {
          await setSsoHandoff(trx, row!.state_hash, {
            handoff_hash: sha256(handoff),
            handoff_expires_at: isoAfterSeconds(clock, SSO_HANDOFF_TTL_SECONDS),
            user_id: user.id,
            outcome: JSON.stringify(outcome),
          });
          await recordSecurityEvent(trx, clock, {
            type: securityEventTypes.ssoSignIn,
            severity: 'info',
            userId: user.id,
            actorId: user.id,
            meta,
            details: { ...outcome, groups: identity.groups },
          });
        });
        return portal('/login', { [SSO_HANDOFF_FRAGMENT]: handoff });
      } catch (error) {
        if (!(error instanceof SsoRefusal)) {
          if (!(error instanceof HttpError)) throw error;
          // The provider unreachable and the like: told the same way, as the browser is navigating.
          const refusal = new SsoRefusal(error.code, error.message);
          await recordRefusal(refusal, row?.organisation_id ?? null, meta, row?.started_by ?? null);
          return portal('/login', { [SSO_ERROR_FRAGMENT]: refusal.code, message: refusal.message });
        }
        await recordRefusal(
          error,
          row?.organisation_id ?? error.organisationId,
          meta,
          row?.started_by ?? null,
        );
        if (row?.purpose === 'test')
          return finishTest(
            row,
            { ok: false, message: error.message, email: null, groups: [], role: null },
            meta,
          );
        return portal('/login', { [SSO_ERROR_FRAGMENT]: error.code, message: error.message });
      }
    },

    /** The portal trades the callback's one-time code for its session, as any sign-in answers. */
    async complete(code: string, meta: RequestMeta): Promise<SsoSignIn> {
      const row = await takeSsoHandoff(db, sha256(code), isoNow(clock));
      const invalid = () =>
        unauthorized('sso_code_invalid', 'This sign-in has expired or was already used. Start again.');
      if (!row || row.user_id === null || row.outcome === null) throw invalid();
      const user = await findUserById(db, row.user_id);
      if (!user) throw invalid();
      if (user.status !== 'active') throw forbidden('account_disabled', refusalMessages.account_disabled);
      const outcome = JSON.parse(row.outcome) as SsoOutcome;
      const tokens = await deps.auth.startSession(user, meta, ['fed']);
      const message = !outcome.has_seat
        ? `You are signed in to ${outcome.organisation_name}, but no seat is free: ask its administrators for one.`
        : outcome.joined
          ? `You joined ${outcome.organisation_name} and have a seat.`
          : `Signed in through ${outcome.organisation_name}.`;
      // Added to the answer itself: the session's binding cookie is attached to this very object.
      return Object.assign(tokens, {
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
