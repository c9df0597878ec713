import {
  SSO_ERROR_FRAGMENT,
  SSO_HANDOFF_FRAGMENT,
  SSO_HANDOFF_TTL_SECONDS,
  type SsoTestResult,
} from '../../../shared/api/organisation-sso.js';
import type { AssignableOrganisationRole } from '../../../shared/api/organisations.js';
import { type Clock, isoAfterSeconds, isoNow } from '../../platform/clock.js';
import { randomToken, sha256 } from '../../platform/crypto.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';
import type { OrganisationSsoRow, SsoSignInRow } from '../../platform/db/tables-organisations.js';
import { HttpError } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import {
  type AuthService,
  createInvitedAccount,
  findUserByEmail,
  type PasswordHasher,
} from '../../identity/index.js';
import type { LicensingEvents } from '../events.js';
import { floatingTermsOf } from '../floating/repository.js';
import { findOrganisation, insertMember, updateMember } from '../organisations/repository.js';
import {
  countSeatsTaken,
  findMembership,
  findOrganisationLicense,
  lockOrganisation,
} from '../organisations/seats-repository.js';
import { recordOrganisationChange } from '../organisations/service.js';
import { desktopReturn } from './desktop-binding.js';
import { holdsVerifiedDomain, recordSsoTest, setSsoHandoff } from './repository.js';
import { domainOf, groupsOf, roleFor, roleRulesOf } from './views.js';

// What a single sign-on does once the provider has answered and its answer was verified, the same
// whatever the protocol: the address must be at a domain the organisation verified; a first
// sign-in makes the account and the membership (a seat while one is free, or on a floating plan
// the shared pool, the role from the groups); a test reports what came back; every refusal is a
// security event and a navigation.

/** What the hand-over code's sign-in did, kept until the portal trades the code. */
export interface SsoOutcome {
  organisation_id: string;
  organisation_name: string;
  joined: boolean;
  /** Whether the person can run the app on the organisation's license: a named seat, or its floating pool. */
  has_seat: boolean;
  /** The organisation's plan is floating: its members share the pool, no one holds a named seat. */
  floating?: boolean;
  role: string;
}

/** What a provider said of the person, as claims: `email`, `name`, `email_verified`, the groups' claim. */
export type ProviderClaims = Record<string, unknown>;

/** A refused sign-in: the browser goes back to the portal with the code, and the log says why. */
export class SsoRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** The organisation whose sign-in it was, when the state named one. */
    readonly organisationId: string | null = null,
  ) {
    super(message);
  }
}

export const refusalMessages = {
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
  saml_response_refused: 'The identity provider’s SAML answer could not be verified. Start again.',
  saml_assertion_replayed: 'This SAML answer was already used. Start again.',
  account_disabled: 'This account is disabled. Contact support.',
} as const;
export type RefusalCode = keyof typeof refusalMessages;
export const refuse = (code: RefusalCode, more?: string, organisationId: string | null = null) =>
  new SsoRefusal(code, more ? `${refusalMessages[code]} ${more}` : refusalMessages[code], organisationId);

export interface FederatedArrivalDeps {
  db: Db;
  clock: Clock;
  events: LicensingEvents;
  publicUrl: string;
  passwords: PasswordHasher;
  /** Accounts made on a first sign-in. */
  auth: Pick<AuthService, 'newAccountRow'>;
}

export function createFederatedArrival(deps: FederatedArrivalDeps) {
  const { db, clock, events, publicUrl } = deps;

  async function checkedIdentity(settings: OrganisationSsoRow, claims: ProviderClaims) {
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
      const license = await findOrganisationLicense(trx, organisationId);
      // On a floating plan everyone shares the pool as their machines run, as invitations do.
      const floating = license !== undefined && (await floatingTermsOf(trx, license)) !== undefined;
      const base = { organisation_id: organisation.id, organisation_name: organisation.name, floating };
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
          has_seat: floating || membership.seat_assigned_at !== null,
          role: changes ? role : membership.role,
        };
      }
      const now = isoNow(clock);
      const { held, pending } = await countSeatsTaken(trx, organisationId, now);
      const hasSeat = !floating && license !== undefined && held + pending < (license.seats ?? 0);
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
      return { ...base, joined: true, has_seat: floating || hasSeat, role };
    });
  }

  const portal = (path: string, fragment: Record<string, string>) =>
    `${publicUrl}${path}#${new URLSearchParams(fragment).toString()}`;
  /**
   * The end of a sign-in: the portal's sign-in page (the code in the fragment, never sent on), or
   * the desktop app's loopback listener for a sign-in it started (in the query, which it reads).
   */
  const backTo = (row: SsoSignInRow | undefined, said: Record<string, string>) =>
    row && row.desktop_port !== null ? desktopReturn(row.desktop_port, said) : portal('/login', said);

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
    /**
     * The verified claims of a spent sign-in: a test is reported (the domain check included) and
     * signs nobody in; a sign-in makes or finds the account and membership and leaves the one-time
     * hand-over code. Where to send the browser.
     */
    async arrive(
      settings: OrganisationSsoRow,
      row: SsoSignInRow,
      claims: ProviderClaims,
      meta: RequestMeta,
      providerName: string,
    ): Promise<string> {
      if (row.purpose === 'test') {
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
          { ok: true, message: `Signed in as ${email} through ${providerName}.`, email, groups, role },
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
        await setSsoHandoff(trx, row.state_hash, {
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
          details: { ...outcome, groups: identity.groups, protocol: settings.protocol },
        });
      });
      return backTo(row, { [SSO_HANDOFF_FRAGMENT]: handoff });
    },

    /**
     * A sign-in refused at any step: logged, and where to send the browser (it is a navigation, so
     * never a JSON error): a test to the organisation's page with its result, else the sign-in page
     * with the refusal's code and message. Errors that are neither refusals nor HTTP errors go on.
     */
    async refused(error: unknown, row: SsoSignInRow | undefined, meta: RequestMeta): Promise<string> {
      let refusal: SsoRefusal;
      if (error instanceof SsoRefusal) refusal = error;
      // The provider unreachable and the like: told the same way, as the browser is navigating.
      else if (error instanceof HttpError) refusal = new SsoRefusal(error.code, error.message);
      else throw error;
      await recordRefusal(
        refusal,
        row?.organisation_id ?? refusal.organisationId,
        meta,
        row?.started_by ?? null,
      );
      // A manager's test goes back to the organisation's page, whatever step refused it.
      if (row?.purpose === 'test')
        return finishTest(
          row,
          { ok: false, message: refusal.message, email: null, groups: [], role: null },
          meta,
        );
      return backTo(row, { [SSO_ERROR_FRAGMENT]: refusal.code, message: refusal.message });
    },
  };
}

export type FederatedArrival = ReturnType<typeof createFederatedArrival>;
