import { createHash, randomBytes } from 'node:crypto';
import type { LeaseSigningKeys, LicenseStatusAnswer } from '../shared/api/licenses.js';
import { type LicenseCheckResult, offlineValidMessage, toLicenseCheckResult } from '../shared/bridge.js';
import {
  LEASE_MAX_LIFETIME_SECONDS,
  type LeaseProblem,
  verifyCheckProof,
  verifyLease,
} from '../shared/lease.js';
import type { FingerprintComponents } from '../shared/fingerprint.js';
import { normalizeLicenseKey } from '../shared/license-key.js';
import { licenseMessages } from '../shared/screen-messages.js';
import type { LicenseStateFile } from './license-state.js';
import type { LicensingApi } from './licensing-api.js';
import { trialAt } from '../shared/trial-days.js';

export interface LicenseChecker {
  /** Status of the stored key on this machine: asked online, else read from the stored lease. */
  check(): Promise<LicenseCheckResult>;
}

export interface LicenseCheckerOptions {
  api: LicensingApi;
  state: LicenseStateFile;
  hardwareId: () => string;
  /** This machine's hashed fingerprint components, sent beside the hardware id (none: left out). */
  components?: () => FingerprintComponents | undefined;
  /**
   * The keys leases are verified with, pinned at build time (MAIN_VITE_LEASE_PUBLIC_KEYS): never
   * keys from the state file or the server. Without them there is no offline use, and an online
   * answer is taken as the server gives it.
   */
  trustedKeys: LeaseSigningKeys | undefined;
  /** This machine's clock (injected so tests can move it, or roll it back). */
  now: () => Date;
  log?: (message: string) => void;
}

export const notConfigured: LicenseCheckResult = {
  valid: false,
  status: 'not_configured',
  message: licenseMessages.notConfigured,
  requires_activation: true,
};

/** An online answer whose lease does not verify: it may come from a server that is not ours. */
export const unverifiedAnswerMessage =
  "The license server's answer could not be verified. Check that the system clock is correct and that this app is up to date.";

/** An online answer that is not the answer to this check's nonce: captured earlier and fed back. */
export const replayedAnswerMessage =
  "The license server's answer was not the answer to this check, so it was not trusted. Check your network connection and try again.";

/** Logged once when the build pins no lease keys. */
export const noTrustedKeysLog =
  'No lease public keys are built in (MAIN_VITE_LEASE_PUBLIC_KEYS): offline use is off, licenses are checked online only';

export const offlineUnavailableMessage = (reason: string) =>
  `Offline: ${reason}. Offline use needs the license server's signing keys built into this app, and this build has none; connect to the internet to check the license.`;

// A lease that fails these checks is not worth keeping: no clock change will make it valid.
const UNUSABLE_LEASE: ReadonlySet<LeaseProblem> = new Set([
  'malformed',
  'unknown_key',
  'wrong_algorithm',
  'bad_signature',
  'wrong_hardware',
  'lifetime_too_long',
]);

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The key fingerprint a lease carries (the server's keyFingerprint of the canonical key). */
export const keyFingerprint = (licenseKey: string) =>
  createHash('sha256')
    .update(normalizeLicenseKey(licenseKey) ?? licenseKey)
    .digest()
    .subarray(0, 16)
    .toString('base64url');

/**
 * Licensing in main, so a check still answers offline from the signed lease: every check asks the
 * server; a valid answer counts only with a lease that verifies under the pinned keys, and that
 * lease is kept; a refusal deletes it, and without an answer the kept lease decides until it
 * expires. The clock high-water mark makes a rolled-back clock fail instead of stretching the
 * grace period.
 */
export function createLicenseChecker(options: LicenseCheckerOptions): LicenseChecker {
  const { api, state, trustedKeys } = options;
  const log = options.log ?? (() => undefined);
  if (!trustedKeys) log(noTrustedKeysLog);

  /** Whether the answer's lease is the server's (pinned keys), for this machine, key and license. */
  async function answerVerifies(
    answer: LicenseStatusAnswer,
    keys: LeaseSigningKeys,
    licenseKey: string,
    hardwareId: string,
    nowSeconds: number,
  ): Promise<boolean> {
    const verification = await verifyLease(answer.lease, {
      keys,
      hardwareId,
      nowSeconds,
      maxLifetimeSeconds: LEASE_MAX_LIFETIME_SECONDS,
      // Just issued: a machine clock behind the server's is slow, not rolled back (expiry still counts).
      driftSeconds: Number.MAX_SAFE_INTEGER,
    });
    if (!verification.ok) {
      log(`License check: the server's lease does not verify here (${verification.problem}); answer refused`);
      return false;
    }
    const { claims } = verification;
    if (claims.sub !== answer.license_id || claims.kfp !== keyFingerprint(licenseKey)) {
      log("License check: the server's lease is for another license or key; answer refused");
      return false;
    }
    return true;
  }

  /**
   * Whether a valid answer is the answer to this check: it echoes the nonce sent, and with pinned
   * keys its signed proof names that nonce, this machine, the license and the answer's lease.
   */
  async function answersThisCheck(answer: LicenseStatusAnswer, nonce: string, hardwareId: string) {
    if (answer.nonce !== nonce) {
      log('License check: the answer does not carry the nonce this check sent; answer refused');
      return false;
    }
    if (!trustedKeys) return true;
    const proven =
      answer.check !== undefined &&
      (await verifyCheckProof(answer.check, {
        keys: trustedKeys,
        nonce,
        hardwareId,
        licenseId: answer.license_id,
        lease: answer.lease,
      }));
    if (!proven) log("License check: the answer's signed nonce does not verify here; answer refused");
    return proven;
  }

  async function offline(reason: string, licenseKey: string, hardwareId: string, now: Date) {
    if (!trustedKeys)
      return {
        valid: false,
        status: 'error',
        message: offlineUnavailableMessage(reason),
      } satisfies LicenseCheckResult;
    const current = await state.read();
    const lease = current.license_key === licenseKey ? current.lease : null;
    if (!lease)
      return {
        valid: false,
        status: 'error',
        message: `Offline: ${reason}, and this machine has no offline license yet. Connect to the internet to check the license.`,
      } satisfies LicenseCheckResult;
    const nowSeconds = seconds(now);
    const verification = await verifyLease(lease.token, {
      keys: trustedKeys,
      hardwareId,
      nowSeconds,
      lastSeenSeconds: current.last_seen_seconds,
      maxLifetimeSeconds: LEASE_MAX_LIFETIME_SECONDS,
    });
    if (!verification.ok) {
      if (UNUSABLE_LEASE.has(verification.problem))
        await state.update((s) => (s.license_key === licenseKey ? { ...s, lease: null } : s));
      return { valid: false, status: 'error', message: verification.message } satisfies LicenseCheckResult;
    }
    await state.update((s) => ({ ...s, last_seen_seconds: Math.max(s.last_seen_seconds, nowSeconds) }));
    const { claims, remainingSeconds } = verification;
    if (claims.license_expires_at && Date.parse(claims.license_expires_at) <= now.getTime())
      return {
        valid: false,
        status: claims.trial ? 'trial_expired' : 'expired',
        message: claims.trial
          ? 'Your free trial has ended. Connect to the internet and buy the plan to keep using it.'
          : 'This license has expired. Connect to the internet to renew it.',
        license_id: claims.sub,
        expires_at: claims.license_expires_at,
      } satisfies LicenseCheckResult;
    return {
      valid: true,
      status: 'active',
      message: offlineValidMessage(remainingSeconds),
      requires_activation: false,
      license_id: claims.sub,
      expires_at: claims.license_expires_at,
      // The seat the lease names, so an offline member still sees whose license it is.
      ...(claims.seat ? { seat: claims.seat } : {}),
      // A trial's days left as of now, not as of the lease's signing.
      ...(claims.trial ? { trial: trialAt(claims.trial.ends_at, now) ?? claims.trial } : {}),
      // A perpetual license's window, as the online check gives it, so the app says what it covers.
      ...(claims.updates_until
        ? {
            updates_until: claims.updates_until,
            update_window_ended: Date.parse(claims.updates_until) <= now.getTime(),
          }
        : {}),
      offline: {
        lease_expires_at: new Date(claims.exp * 1000).toISOString(),
        grace_remaining_seconds: remainingSeconds,
      },
    } satisfies LicenseCheckResult;
  }

  return {
    async check() {
      const current = await state.read();
      const licenseKey = current.license_key;
      if (!licenseKey) return notConfigured;
      const hardwareId = options.hardwareId();
      const now = options.now();
      const nowSeconds = seconds(now);
      // Remembered here only: the server signs it back, and no answer to another check passes.
      const nonce = randomBytes(18).toString('base64url');
      const outcome = await api.status(licenseKey, hardwareId, nonce, options.components?.());
      switch (outcome.kind) {
        case 'valid': {
          const { answer } = outcome;
          if (trustedKeys && !(await answerVerifies(answer, trustedKeys, licenseKey, hardwareId, nowSeconds)))
            return { valid: false, status: 'error', message: unverifiedAnswerMessage };
          if (!(await answersThisCheck(answer, nonce, hardwareId)))
            return { valid: false, status: 'error', message: replayedAnswerMessage };
          await state.update((s) =>
            s.license_key === licenseKey
              ? {
                  ...s,
                  // Without pinned keys a lease could not be verified offline, so none is kept.
                  lease: trustedKeys ? { token: answer.lease } : s.lease,
                  last_seen_seconds: Math.max(s.last_seen_seconds, nowSeconds),
                }
              : s,
          );
          return toLicenseCheckResult(answer);
        }
        case 'refused':
          // The server said no: a lease kept from before must not keep the app working offline.
          await state.update((s) =>
            s.license_key === licenseKey
              ? { ...s, lease: null, last_seen_seconds: Math.max(s.last_seen_seconds, nowSeconds) }
              : s,
          );
          return {
            valid: false,
            status: outcome.status,
            message: outcome.message,
            requires_activation: outcome.requiresActivation,
            ...(outcome.resumesAt ? { resumes_at: outcome.resumesAt } : {}),
          };
        case 'failed':
          return { valid: false, status: 'error', message: outcome.message };
        case 'unreachable':
          return offline(outcome.reason, licenseKey, hardwareId, now);
      }
    },
  };
}
