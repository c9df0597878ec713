import { createHash, randomUUID } from 'node:crypto';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { TokenResponse } from '../../../shared/api/auth.js';
import type { Passkey, PasskeyCeremony } from '../../../shared/api/passkeys.js';
import { PRODUCT_NAME } from '../../../shared/constants.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { PasskeyRow, UserRow } from '../../platform/db/tables.js';
import {
  badRequest,
  conflict,
  forbidden,
  HttpError,
  notFound,
  unauthorized,
} from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { findUserById } from '../users/repository.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { passSsoGate, type PasswordGate } from './password-gate.js';
import { findChallenge, issueChallenge, recordWrongAnswer, useChallenge } from './challenges.js';
import {
  admitLoginAttempt,
  cancelLoginAttempt,
  type LoginAttempt,
  type LockoutPolicy,
  lockedOutError,
  recordLoginFailure,
  recordLoginSuccess,
} from './login-throttle.js';
import {
  deletePasskeyRow,
  findPasskeyByCredentialId,
  findPasskeyOfUser,
  insertPasskey,
  listPasskeysOfUser,
  recordPasskeyUse,
  renamePasskeyRow,
} from './passkeys-repository.js';
import type { SignInMethod } from './refresh-tokens.js';
import {
  firstStepOf,
  SECOND_FACTOR_KINDS,
  secondFactorGone,
  SECOND_FACTOR_MAX_WRONG_ANSWERS,
} from './second-factor-sign-in.js';
import { recordStepUp } from './step-up-repository.js';
import type { SignInObserver } from './sign-in-observer.js';

/**
 * The WebAuthn library, loaded at the first ceremony: it is the heaviest thing identity imports,
 * and a server start or an administrator's command that meets no passkey need not wait for it.
 */
const webauthn = () => import('@simplewebauthn/server');

/** Where passkeys are valid: the RP id (PUBLIC_URL's host name) and the page origins allowed to use them. */
export interface RelyingParty {
  id: string;
  origins: readonly string[];
}

/**
 * The relying party of a portal served at `publicUrl`. Only that origin: the desktop shell's
 * `app://portal` pages cannot use a passkey whose RP id is a web host (a browser ties the RP id
 * to the page's own host), so the desktop sends people to the browser for passkeys instead.
 */
export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origins: [url.origin] };
}

export interface PasskeysDeps {
  db: Db;
  clock: Clock;
  rp: RelyingParty;
  lockout: LockoutPolicy;
  /** Starts the session of an account that proved who it is (the auth service's). */
  startSession(user: UserRow, meta: RequestMeta, methods: readonly SignInMethod[]): Promise<TokenResponse>;
  /** Told of refused passkey sign-ins (the metrics). */
  signIns?: SignInObserver;
  /** Who must sign in through their organisation's provider: a passkey alone does not let them in. */
  passwordGate?: PasswordGate;
}

const CEREMONY_TTL_SECONDS = 5 * 60;
const CEREMONY_TIMEOUT_MS = CEREMONY_TTL_SECONDS * 1000;

const ceremonyExpired = () =>
  badRequest('passkey_ceremony_expired', 'This passkey request has expired or was already used. Try again.');
const unknownPasskey = () =>
  unauthorized('passkey_not_recognised', 'This passkey is not registered with any account here.');
const passkeyRefused = () =>
  unauthorized('passkey_verification_failed', 'The passkey could not be verified. Try again.');

const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  created_at: row.created_at,
  last_used_at: row.last_used_at,
  device_type: row.device_type === 'multiDevice' ? 'multiDevice' : 'singleDevice',
  backed_up: row.backed_up === 1,
});

const parseTransports = (json: string | null): string[] | undefined => {
  if (!json) return undefined;
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed)
    ? parsed.filter((item): item is string => typeof item === 'string')
    : undefined;
};

/**
 * What the client and the authenticator say about where the ceremony happened, read before the
 * library's check so a wrong origin, RP id or counter gets its own refusal (and event) rather
 * than one generic failure.
 */
function readCeremonyFacts(clientDataJSON: string, authenticatorData?: string) {
  let origin: unknown;
  try {
    origin = (JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { origin?: unknown })
      .origin;
  } catch {
    throw badRequest('passkey_malformed', 'The passkey answer is malformed.');
  }
  if (authenticatorData === undefined) return { origin, rpIdHash: undefined, counter: undefined };
  const data = Buffer.from(authenticatorData, 'base64url');
  if (data.length < 37) throw badRequest('passkey_malformed', 'The passkey answer is malformed.');
  return { origin, rpIdHash: data.subarray(0, 32), counter: data.readUInt32BE(33) };
}

export function createPasskeys(deps: PasskeysDeps) {
  const { db, clock, rp } = deps;
  const rpIdHash = createHash('sha256').update(rp.id).digest();

  function checkOrigin(origin: unknown) {
    if (typeof origin !== 'string' || !rp.origins.includes(origin))
      throw badRequest(
        'passkey_wrong_origin',
        `The passkey answer was made for another site (${String(origin).slice(0, 100)}); passkeys work here only on ${rp.origins.join(', ')}.`,
      );
  }

  function checkRpIdHash(hash: Buffer | undefined) {
    if (hash && !hash.equals(rpIdHash))
      throw badRequest('passkey_wrong_rp_id', `The passkey belongs to another site than ${rp.id}.`);
  }

  async function ceremony(
    kind: 'passkey_registration' | 'passkey_sign_in',
    userId: string | null,
    options: { challenge: string },
  ): Promise<PasskeyCeremony> {
    const issued = await issueChallenge(db, clock, {
      kind,
      userId,
      ttlSeconds: CEREMONY_TTL_SECONDS,
      webauthnChallenge: options.challenge,
    });
    return { ceremony: issued.token, options };
  }

  async function authenticationOptions(userId: string | null, userVerification: 'required' | 'preferred') {
    const allowCredentials =
      userId === null
        ? []
        : (await listPasskeysOfUser(db, userId)).map((row) => ({
            id: row.credential_id,
            transports: parseTransports(row.transports),
          }));
    const options = await (
      await webauthn()
    ).generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials,
      userVerification,
      timeout: CEREMONY_TIMEOUT_MS,
    });
    return ceremony('passkey_sign_in', userId, options);
  }

  /**
   * Checks an assertion against the passkey it names and records its use. `forUserId` limits it
   * to one account's passkeys (a second factor, a step-up). Answers the passkey and its account,
   * or throws; `onFailure` runs before a refusal that concerns a known account.
   */
  async function verifyAssertion(
    ceremonyToken: string,
    response: AuthenticationResponseJSON,
    options: {
      forUserId: string | null;
      requireUserVerification: boolean;
      meta: RequestMeta;
      onFailure?: (user: UserRow, reason: string) => Promise<void>;
    },
  ): Promise<{ passkey: PasskeyRow; user: UserRow }> {
    const challenge = await useChallenge(db, clock, 'passkey_sign_in', ceremonyToken);
    if (!challenge?.webauthn_challenge || challenge.user_id !== options.forUserId) throw ceremonyExpired();

    const passkey = await findPasskeyByCredentialId(db, response.id);
    if (!passkey || (options.forUserId !== null && passkey.user_id !== options.forUserId))
      throw unknownPasskey();
    const user = await findUserById(db, passkey.user_id);
    if (!user) throw unknownPasskey();
    // A discoverable credential names its account: it must be the one the passkey was registered to.
    const userHandle = response.response.userHandle;
    if (userHandle && Buffer.from(userHandle, 'base64url').toString('utf8') !== user.id)
      throw unknownPasskey();

    const refuse = async (error: HttpError, reason: string): Promise<never> => {
      await options.onFailure?.(user, reason);
      throw error;
    };

    const facts = readCeremonyFacts(response.response.clientDataJSON, response.response.authenticatorData);
    try {
      checkOrigin(facts.origin);
      checkRpIdHash(facts.rpIdHash);
    } catch (error) {
      return refuse(
        error as HttpError,
        error instanceof HttpError ? error.code.replace(/^passkey_/, '') : 'malformed',
      );
    }
    // Counters that move (single-device authenticators) must move forward: a counter that stays
    // or goes back means a cloned authenticator or a replayed answer. Synced passkeys keep 0.
    const counter = facts.counter ?? 0;
    if ((counter !== 0 || passkey.sign_count !== 0) && counter <= passkey.sign_count) {
      await recordSecurityEvent(db, clock, {
        type: securityEventTypes.passkeyCounterRegressed,
        severity: 'critical',
        userId: user.id,
        meta: options.meta,
        details: { passkey_id: passkey.id, stored_counter: passkey.sign_count, received_counter: counter },
      });
      return refuse(
        unauthorized(
          'passkey_counter_not_increased',
          'This passkey answer was already used, or the passkey may have been copied. Try again, or remove the passkey if it keeps happening.',
        ),
        'counter_not_increased',
      );
    }

    let verified;
    try {
      verified = await (
        await webauthn()
      ).verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge.webauthn_challenge,
        expectedOrigin: [...rp.origins],
        expectedRPID: rp.id,
        credential: {
          id: passkey.credential_id,
          publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
          counter: passkey.sign_count,
          transports: parseTransports(passkey.transports) as never,
        },
        requireUserVerification: options.requireUserVerification,
      });
    } catch {
      return refuse(passkeyRefused(), 'invalid_assertion');
    }
    if (!verified.verified) return refuse(passkeyRefused(), 'invalid_assertion');

    const recorded = await recordPasskeyUse(db, {
      id: passkey.id,
      previousCount: passkey.sign_count,
      newCount: verified.authenticationInfo.newCounter,
      at: isoNow(clock),
      backedUp: verified.authenticationInfo.credentialBackedUp,
    });
    // Another use of this passkey got in first with a counter this one no longer beats.
    if (!recorded) return refuse(passkeyRefused(), 'concurrent_use');
    return { passkey, user };
  }

  /** The log and the locks of a failed sign-in with a known account's passkey. */
  async function signInFailure(user: UserRow, attempt: LoginAttempt, meta: RequestMeta, reason: string) {
    const locks = await recordLoginFailure(db, clock, deps.lockout, attempt);
    deps.signIns?.failed({ method: 'webauthn', reason: `passkey_${reason}` });
    await recordSecurityEvent(db, clock, {
      type: securityEventTypes.loginFailed,
      severity: 'warning',
      userId: user.id,
      meta,
      details: { email: user.email, reason: `passkey_${reason}`, method: 'webauthn' },
    });
    for (const lock of locks)
      await recordSecurityEvent(db, clock, {
        type: securityEventTypes.accountLocked,
        severity: 'warning',
        userId: user.id,
        meta,
        details: { email: user.email, scope: lock.scope, locked_until: lock.until.toISOString() },
      });
  }

  /** The account's own refusals, as a password sign-in gives them. */
  function checkAccountMaySignIn(user: UserRow) {
    if (user.status !== 'active')
      throw forbidden('account_disabled', 'This account is disabled. Contact support.');
    if (user.email_verified_at === null)
      throw forbidden(
        'email_not_verified',
        'Confirm your e-mail address before signing in: follow the link we sent when you registered.',
      );
  }

  return {
    async list(userId: string): Promise<Passkey[]> {
      return (await listPasskeysOfUser(db, userId)).map(toPasskey);
    },

    async startRegistration(user: UserRow): Promise<PasskeyCeremony> {
      const existing = await listPasskeysOfUser(db, user.id);
      const options = await (
        await webauthn()
      ).generateRegistrationOptions({
        rpName: PRODUCT_NAME,
        rpID: rp.id,
        userName: user.email,
        userDisplayName: user.full_name ?? user.email,
        userID: new TextEncoder().encode(user.id),
        attestationType: 'none',
        excludeCredentials: existing.map((row) => ({
          id: row.credential_id,
          transports: parseTransports(row.transports),
        })),
        // A passkey: kept on the authenticator (discoverable), so it can sign in without an e-mail.
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        timeout: CEREMONY_TIMEOUT_MS,
      });
      return ceremony('passkey_registration', user.id, options);
    },

    async finishRegistration(
      user: UserRow,
      input: { ceremony: string; name: string; response: RegistrationResponseJSON },
      meta: RequestMeta,
    ): Promise<Passkey> {
      const challenge = await useChallenge(db, clock, 'passkey_registration', input.ceremony);
      if (!challenge?.webauthn_challenge || challenge.user_id !== user.id) throw ceremonyExpired();
      checkOrigin(readCeremonyFacts(input.response.response.clientDataJSON).origin);

      let verified;
      try {
        verified = await (
          await webauthn()
        ).verifyRegistrationResponse({
          response: input.response,
          expectedChallenge: challenge.webauthn_challenge,
          expectedOrigin: [...rp.origins],
          expectedRPID: rp.id,
          requireUserVerification: true,
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : '';
        if (/RP ID/i.test(message))
          throw badRequest('passkey_wrong_rp_id', `The passkey was made for another site than ${rp.id}.`);
        throw badRequest('passkey_registration_failed', 'The passkey could not be registered. Try again.');
      }
      if (!verified.verified)
        throw badRequest('passkey_registration_failed', 'The passkey could not be registered. Try again.');
      const info = verified.registrationInfo;
      if (await findPasskeyByCredentialId(db, info.credential.id))
        throw conflict('passkey_already_registered', 'This passkey is already registered.');

      const row: PasskeyRow = {
        id: randomUUID(),
        user_id: user.id,
        credential_id: info.credential.id,
        public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
        sign_count: info.credential.counter,
        transports: JSON.stringify(input.response.response.transports ?? []),
        device_type: info.credentialDeviceType,
        backed_up: info.credentialBackedUp ? 1 : 0,
        name: input.name,
        created_at: isoNow(clock),
        last_used_at: null,
      };
      await db.transaction().execute(async (trx) => {
        await insertPasskey(trx, row);
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.passkeyAdded,
          severity: 'info',
          userId: user.id,
          meta,
          details: { passkey_id: row.id, name: row.name, device_type: row.device_type },
        });
      });
      return toPasskey(row);
    },

    async rename(userId: string, id: string, name: string): Promise<Passkey> {
      if (!(await renamePasskeyRow(db, userId, id, name)))
        throw notFound('passkey_not_found', 'No such passkey');
      const row = await findPasskeyOfUser(db, userId, id);
      if (!row) throw notFound('passkey_not_found', 'No such passkey');
      return toPasskey(row);
    },

    async remove(userId: string, id: string, meta: RequestMeta): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const row = await findPasskeyOfUser(trx, userId, id);
        if (!row || !(await deletePasskeyRow(trx, userId, id)))
          throw notFound('passkey_not_found', 'No such passkey');
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.passkeyRemoved,
          severity: 'warning',
          userId,
          meta,
          details: { passkey_id: row.id, name: row.name },
        });
      });
    },

    /**
     * Options of a passkey sign-in: without `secondFactorChallenge`, passwordless with any
     * discoverable passkey; with it, the second step of that password sign-in, limited to the
     * account's passkeys.
     */
    async signInOptions(secondFactorChallenge: string | undefined): Promise<PasskeyCeremony> {
      if (secondFactorChallenge === undefined) return authenticationOptions(null, 'required');
      const pending = await findChallenge(db, clock, SECOND_FACTOR_KINDS, secondFactorChallenge);
      if (!pending?.user_id) throw await secondFactorGone(db, secondFactorChallenge);
      return authenticationOptions(pending.user_id, 'preferred');
    },

    async signIn(
      input: { challenge?: string; ceremony: string; response: AuthenticationResponseJSON },
      meta: RequestMeta,
    ): Promise<TokenResponse> {
      if (!(await findChallenge(db, clock, 'passkey_sign_in', input.ceremony))) throw ceremonyExpired();
      let forUserId: string | null = null;
      let pendingId: string | undefined;
      if (input.challenge !== undefined) {
        const pending = await findChallenge(db, clock, SECOND_FACTOR_KINDS, input.challenge);
        if (!pending?.user_id) throw await secondFactorGone(db, input.challenge);
        forUserId = pending.user_id;
        pendingId = pending.id;
      }
      // The account the passkey claims to be, so a failure counts against its sign-in throttle
      // like a wrong password, and a locked account stays locked whatever proves it.
      const claimed = await findPasskeyByCredentialId(db, input.response.id);
      const owner = await findUserById(db, forUserId ?? claimed?.user_id ?? '');
      if (!owner) {
        await useChallenge(db, clock, 'passkey_sign_in', input.ceremony);
        throw unknownPasskey();
      }
      const admission = await admitLoginAttempt(db, clock, deps.lockout, {
        email: owner.email,
        ip: meta.ip,
        userId: owner.id,
      });
      if (!admission.admitted) throw lockedOutError(admission.retryAt, clock.now());
      const { attempt } = admission;

      const outcome = { judged: false };
      let user: UserRow;
      try {
        ({ user } = await verifyAssertion(input.ceremony, input.response, {
          forUserId,
          requireUserVerification: forUserId === null,
          meta,
          onFailure: async (refused, reason) => {
            outcome.judged = true;
            // As with wrong codes, a few wrong answers end the sign-in: it starts again from the password.
            if (pendingId && (await recordWrongAnswer(db, pendingId)) >= SECOND_FACTOR_MAX_WRONG_ANSWERS)
              await useChallenge(db, clock, SECOND_FACTOR_KINDS, input.challenge ?? '');
            await signInFailure(refused, attempt, meta, reason);
          },
        }));
      } catch (error) {
        // Refusals that judged no passkey (an expired ceremony, another account's passkey as the
        // second factor) are not guesses at this account.
        if (!outcome.judged) await cancelLoginAttempt(db, attempt);
        throw error;
      }
      await recordLoginSuccess(db, attempt);
      checkAccountMaySignIn(user);
      // A passkey as the second factor follows a password that already passed the gate.
      if (input.challenge === undefined) {
        const requirement = await passSsoGate(deps.passwordGate, user).catch((error: unknown) => {
          deps.signIns?.failed({ method: 'webauthn', reason: 'sso_required' });
          throw error;
        });
        if (requirement)
          await recordSecurityEvent(db, clock, {
            type: securityEventTypes.ssoBreakGlass,
            severity: 'critical',
            userId: user.id,
            actorId: user.id,
            meta,
            details: { organisation_id: requirement.organisationId, email: user.email, via: 'passkey' },
          });
      }
      const methods: SignInMethod[] = ['webauthn'];
      if (input.challenge !== undefined) {
        const used = await useChallenge(db, clock, SECOND_FACTOR_KINDS, input.challenge);
        if (!used || used.user_id !== user.id) throw await secondFactorGone(db, input.challenge);
        methods.unshift(firstStepOf(used));
      }
      return deps.startSession(user, meta, methods);
    },

    async stepUpOptions(userId: string): Promise<PasskeyCeremony> {
      if ((await listPasskeysOfUser(db, userId)).length === 0)
        throw badRequest('no_passkeys', 'This account has no passkey yet.');
      return authenticationOptions(userId, 'preferred');
    },

    /** A passkey's fresh proof that the session's owner is still there. */
    async stepUp(
      caller: { userId: string; sessionId: string },
      input: { ceremony: string; response: AuthenticationResponseJSON },
      meta: RequestMeta,
    ): Promise<{ stepped_up_at: string }> {
      await verifyAssertion(input.ceremony, input.response, {
        forUserId: caller.userId,
        requireUserVerification: false,
        meta,
      });
      const at = isoNow(clock);
      await recordStepUp(db, caller.sessionId, at);
      return { stepped_up_at: at };
    },
  };
}

export type PasskeysService = ReturnType<typeof createPasskeys>;
