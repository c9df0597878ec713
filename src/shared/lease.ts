import { base64url, decodeProtectedHeader, type JWK, importJWK, jwtVerify, errors as joseErrors } from 'jose';
import type { LeaseSigningKeys } from './api/licenses.js';
import type { SeatHolder } from './api/organisations.js';

/**
 * Units of a metered feature the machine holds for this period: what it may use offline before it
 * must check in again. `reserved` may be 0 (nothing was left); the use it reports while online
 * counts against the period as usual.
 */
export interface LeaseUsage {
  key: string;
  period_start: string;
  period_end: string;
  reserved: number;
}

/**
 * The offline lease: what the server vouched for about one license on one machine, signed with
 * Ed25519, so the desktop shell can keep working without the network until `exp`.
 */
export interface LeaseClaims {
  /** License id; on a machine trial's lease, the machine trial's id. */
  sub: string;
  /**
   * SHA-256 of the license key (base64url, 16 bytes): binds the lease to the key without carrying it.
   * Empty on a machine trial's lease, which has no key, so it never passes for a key's lease.
   */
  kfp: string;
  hwid: string;
  plan: { id: string; code: string; name: string };
  features: { key: string; kind: 'boolean' | 'metered'; limit: number | null }[];
  license_expires_at: string | null;
  /**
   * On an organisation's license: the organisation and the member whose seat the machine is on.
   * Absent on personal licenses and on leases signed before organisations existed.
   */
  seat?: SeatHolder;
  /**
   * While the license is a free trial: when it ends (the lease never outlives it) and the whole
   * days left when the lease was signed. Absent on a bought license.
   */
  trial?: { ends_at: string; days_left: number };
  /**
   * On a perpetual license: the end of its update window, so the app knows offline which releases
   * its license covers. Absent on other licenses.
   */
  updates_until?: string;
  /**
   * A machine trial's lease (the app's trial before any account): `sub` is the machine trial, there
   * is no license or key, and `trial` always says when it ends.
   */
  machine_trial?: true;
  /**
   * On a license file for a machine that never goes online: the nonce of the request it answers.
   * Such a lease lives longer than the online ones, so the app takes it only as a license file.
   */
  offline?: { nonce: string };
  /**
   * On a floating license's seat: the seat, and while it is borrowed for offline use the borrow's
   * end (the lease lasts the borrow; otherwise it lasts the seat's lease after a heartbeat).
   */
  floating?: { seat_id: string; borrowed_until: string | null };
  /**
   * The machine's offline allowance per metered feature with an allowance, reserved when the lease
   * was signed. Absent on leases of plans without one, and on leases signed before reservations.
   */
  usage?: LeaseUsage[];
  iat: number;
  exp: number;
  iss: string;
  aud: string;
  jti: string;
}

export const LEASE_ALGORITHM = 'EdDSA';
export const LEASE_TYPE = 'lease+jwt';
export const LEASE_AUDIENCE = 'desktop-ai-assistant-lease';
/** How far a machine's clock may lag the server's before a fresh lease looks rolled back. */
export const LEASE_CLOCK_DRIFT_SECONDS = 300;
/** The longest lease the server issues (LEASE_TTL_SECONDS is at most 90 days). */
export const LEASE_MAX_LIFETIME_SECONDS = 90 * 86_400;

export type LeaseProblem =
  | 'malformed'
  | 'unknown_key'
  | 'wrong_algorithm'
  | 'bad_signature'
  | 'wrong_hardware'
  | 'lifetime_too_long'
  | 'expired'
  | 'clock_rolled_back';

export type LeaseVerification =
  | { ok: true; claims: LeaseClaims; remainingSeconds: number }
  | { ok: false; problem: LeaseProblem; message: string };

const problemMessages: Record<LeaseProblem, string> = {
  malformed: 'The offline license is damaged; connect to the internet to check the license again',
  unknown_key: 'The offline license was signed by an unknown key; connect to the internet to renew it',
  wrong_algorithm: 'The offline license uses an unexpected signature algorithm',
  bad_signature: 'The offline license has been altered; connect to the internet to check the license again',
  wrong_hardware: 'The offline license belongs to another machine',
  lifetime_too_long:
    'The offline license claims a longer validity than any license server issues; connect to the internet to check the license again',
  expired: 'The offline grace period has ended; connect to the internet to check the license',
  clock_rolled_back: 'The system clock is earlier than when the license was last checked; correct the clock',
};

const refuse = (problem: LeaseProblem): LeaseVerification => ({
  ok: false,
  problem,
  message: problemMessages[problem],
});

export interface VerifyLeaseOptions {
  keys: LeaseSigningKeys;
  hardwareId: string;
  /** Seconds since the epoch on this machine. */
  nowSeconds: number;
  /** The latest time this machine has seen (e.g. the last check); a clock before it is rolled back. */
  lastSeenSeconds?: number;
  driftSeconds?: number;
  /** Refuse a lease whose `exp - iat` is longer than this (no limit when absent). */
  maxLifetimeSeconds?: number;
}

/**
 * Whether the signature is spelled the one way base64url spells its bytes. The last character of
 * an Ed25519 signature carries unused bits, and decoders ignore them: without this check a lease
 * altered there would still verify.
 */
function hasCanonicalSignature(lease: string): boolean {
  const signature = lease.split('.')[2];
  if (!signature) return false;
  try {
    return base64url.encode(base64url.decode(signature)) === signature;
  } catch {
    return false;
  }
}

/**
 * Checks a lease offline: signature by one of the given keys (pinned to Ed25519), the machine, the
 * lifetime (when capped), expiry, and a clock set back before the lease was issued or before the
 * last check. Only keys the caller trusts independently of the lease's source may be given.
 */
export async function verifyLease(lease: string, options: VerifyLeaseOptions): Promise<LeaseVerification> {
  const drift = options.driftSeconds ?? LEASE_CLOCK_DRIFT_SECONDS;
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(lease);
  } catch {
    return refuse('malformed');
  }
  if (header.alg !== LEASE_ALGORITHM) return refuse('wrong_algorithm');
  const jwk = options.keys.keys.find((key) => key.kid === header.kid);
  if (!jwk) return refuse('unknown_key');
  if (!hasCanonicalSignature(lease)) return refuse('malformed');

  let claims: LeaseClaims;
  try {
    const key = await importJWK(jwk as JWK, LEASE_ALGORITHM);
    // Time is checked below against the caller's clock, so jose is told not to judge it.
    const verified = await jwtVerify<LeaseClaims>(lease, key, {
      algorithms: [LEASE_ALGORITHM],
      audience: LEASE_AUDIENCE,
      typ: LEASE_TYPE,
      currentDate: new Date(0),
      clockTolerance: Number.MAX_SAFE_INTEGER,
    });
    claims = verified.payload as LeaseClaims;
  } catch (error) {
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) return refuse('bad_signature');
    return refuse('malformed');
  }
  if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number' || typeof claims.hwid !== 'string') {
    return refuse('malformed');
  }
  if (claims.hwid !== options.hardwareId) return refuse('wrong_hardware');
  if (options.maxLifetimeSeconds !== undefined && claims.exp - claims.iat > options.maxLifetimeSeconds)
    return refuse('lifetime_too_long');
  const latestKnown = Math.max(claims.iat, options.lastSeenSeconds ?? 0);
  if (options.nowSeconds < latestKnown - drift) return refuse('clock_rolled_back');
  if (options.nowSeconds >= claims.exp) return refuse('expired');
  return { ok: true, claims, remainingSeconds: claims.exp - options.nowSeconds };
}

/**
 * Checks a machine trial's lease as {@link verifyLease} does, and that it is one: marked
 * `machine_trial`, with no key. A license's lease kept in its place is refused as malformed.
 */
export async function verifyMachineTrialLease(
  lease: string,
  options: VerifyLeaseOptions,
): Promise<LeaseVerification> {
  const verification = await verifyLease(lease, options);
  if (verification.ok && (verification.claims.machine_trial !== true || verification.claims.kfp !== ''))
    return refuse('malformed');
  return verification;
}

/** The signed echo of an online check's nonce: binds that check's answer (its lease) to the request. */
export interface CheckProofClaims {
  nonce: string;
  sub: string;
  hwid: string;
  /** {@link leaseDigest} of the answer's lease. */
  lease: string;
  iat: number;
  exp: number;
  iss: string;
  aud: string;
}

export const CHECK_PROOF_TYPE = 'check+jwt';
/** How long a check's signed nonce is good for: the answer is used at once. */
export const CHECK_PROOF_SECONDS = 300;

/** SHA-256 of a lease (base64url, 16 bytes), as a check proof names it. */
export async function leaseDigest(lease: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(lease));
  return base64url.encode(new Uint8Array(digest).subarray(0, 16));
}

export interface VerifyCheckProofOptions {
  keys: LeaseSigningKeys;
  nonce: string;
  hardwareId: string;
  licenseId: string;
  lease: string;
}

/**
 * Whether a check's answer is the answer to this check: its proof is signed by one of the keys and
 * names the nonce the app sent, its machine, license and the answer's lease. An answer captured
 * before (another nonce) fails, whatever its lease says.
 */
export async function verifyCheckProof(proof: string, options: VerifyCheckProofOptions): Promise<boolean> {
  try {
    const header = decodeProtectedHeader(proof);
    if (header.alg !== LEASE_ALGORITHM) return false;
    const jwk = options.keys.keys.find((key) => key.kid === header.kid);
    if (!jwk || !hasCanonicalSignature(proof)) return false;
    const key = await importJWK(jwk as JWK, LEASE_ALGORITHM);
    // The nonce makes it fresh; its time is not judged against a machine clock that may be off.
    const { payload } = await jwtVerify<CheckProofClaims>(proof, key, {
      algorithms: [LEASE_ALGORITHM],
      audience: LEASE_AUDIENCE,
      typ: CHECK_PROOF_TYPE,
      currentDate: new Date(0),
      clockTolerance: Number.MAX_SAFE_INTEGER,
    });
    return (
      payload.nonce === options.nonce &&
      payload.hwid === options.hardwareId &&
      payload.sub === options.licenseId &&
      payload.lease === (await leaseDigest(options.lease))
    );
  } catch {
    return false;
  }
}
