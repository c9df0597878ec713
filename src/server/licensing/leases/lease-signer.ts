import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomUUID,
  sign as signBytes,
} from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculateJwkThumbprint, type JWK } from 'jose';
import type { FeatureUsage, LeaseSigningKeys } from '../../../shared/api/licenses.js';
import {
  CHECK_PROOF_SECONDS,
  CHECK_PROOF_TYPE,
  type CheckProofClaims,
  LEASE_ALGORITHM,
  LEASE_AUDIENCE,
  LEASE_TYPE,
  type LeaseClaims,
  type LeaseUsage,
} from '../../../shared/lease.js';
import type { Clock } from '../../platform/clock.js';
import { ConfigError } from '../../platform/config.js';

/** Retired keys still served for verification, so leases signed before a rotation stay valid. */
const RETIRED_KEYS_KEPT = 3;
export const LEASE_KEYS_FILE = 'lease-signing-keys.json';

interface StoredKey {
  kid: string;
  /** Private JWK (OKP, Ed25519). */
  jwk: JWK;
  created_at: string;
}
interface KeyFile {
  active: string;
  keys: StoredKey[];
}

type PublicJwk = LeaseSigningKeys['keys'][number];

export interface LeaseInput {
  /** The license, or on a machine trial's lease the machine trial. */
  licenseId: string;
  /** Null on a machine trial's lease: it has no key, so its `kfp` is empty. */
  licenseKey: string | null;
  hardwareId: string;
  plan: { id: string; code: string; name: string };
  features: LeaseClaims['features'];
  licenseExpiresAt: string | null;
  /** The organisation and member whose seat the machine is on, on an organisation's license. */
  seat?: LeaseClaims['seat'] | null;
  /** While the license is a free trial: its end and days left when signed. */
  trial?: LeaseClaims['trial'] | null;
  /** On a perpetual license: the end of its update window. */
  updatesUntil?: string | null;
  /** Marks a machine trial's lease (`machine_trial: true`). */
  machineTrial?: boolean;
  /** A license file's lease: its own lifetime instead of the online one, and its request's nonce. */
  offline?: { nonce: string; lifetimeSeconds: number };
  /**
   * A floating seat's lease: its seat, its borrow's end while borrowed, and its own lifetime (the
   * seat's lease, or the borrow), so the app runs offline no longer than the seat is held.
   */
  floating?: { seatId: string; borrowedUntil: string | null; lifetimeSeconds: number };
  /** The license's features, of which the metered ones get an offline allowance (an online lease). */
  metered?: ReservableFeature[];
  /** The activation the allowance is reserved for, when the caller has it (else found by hardware id). */
  activationId?: string | undefined;
}

/** What reserving a feature's offline allowance reads of it. */
export type ReservableFeature = Pick<
  FeatureUsage,
  'feature_id' | 'key' | 'kind' | 'period' | 'limit' | 'overage'
>;

/** Reserves the machine's offline allowance for a lease that lasts until `expiresAt`. */
export type UsageReserver = (request: {
  licenseId: string;
  hardwareId: string;
  /** The machine's activation, when the caller has it (a license check): it is not looked up then. */
  activationId?: string | undefined;
  features: ReservableFeature[];
  expiresAt: string;
}) => Promise<LeaseUsage[]>;

export interface LeaseSigner {
  sign(input: LeaseInput): Promise<{ lease: string; expiresAt: string }>;
  /**
   * Signs the echo of an online check's nonce, bound to the machine, license and the answer's lease
   * (a small JWS, no write: the app remembers the nonce it sent).
   */
  signCheck(input: { nonce: string; licenseId: string; hardwareId: string; lease: string }): string;
  /** The key new leases are signed with: a lease kept for reuse is reusable only under this key. */
  readonly activeKeyId: string;
  /** The verification keys, active first (`GET /licensing/public-key`). */
  publicKeys(): LeaseSigningKeys;
}

/** The part of a key fingerprint a lease carries: binds it to the key without revealing it. */
export const keyFingerprint = (licenseKey: string) =>
  createHash('sha256').update(licenseKey).digest().subarray(0, 16).toString('base64url');

async function newStoredKey(now: Date): Promise<StoredKey> {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  return { kid: await calculateJwkThumbprint(jwk), jwk, created_at: now.toISOString() };
}

function toPublicJwk(key: KeyObject, kid: string): PublicJwk {
  const { x } = createPublicKey(key).export({ format: 'jwk' }) as { x: string };
  return { kty: 'OKP', crv: 'Ed25519', x, kid, alg: LEASE_ALGORITHM, use: 'sig' };
}

function readKeyFile(file: string): KeyFile {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as KeyFile;
    if (!parsed.keys.some((key) => key.kid === parsed.active)) throw new Error('no active key');
    return parsed;
  } catch (error) {
    throw new ConfigError([
      `The lease signing keys in ${file} cannot be read (${error instanceof Error ? error.message : String(error)}). ` +
        'Restore the file from a backup, or delete it to generate a new key (desktop apps then need to go online once), ' +
        'or set LEASE_SIGNING_KEY.',
    ]);
  }
}

/** Writes the whole file under a private name and links it into place, so no reader sees half of it. */
function writeKeyFile(file: string, content: KeyFile, { replace }: { replace: boolean }): void {
  const draft = `${file}.${process.pid}.${randomUUID()}.tmp`;
  writeFileSync(draft, `${JSON.stringify(content, null, 2)}\n`, { flag: 'wx', mode: 0o600 });
  try {
    if (replace) rmSync(file, { force: true });
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

/** Loads the keys from DATA_DIR/keys, creating the first on a fresh install. */
export async function loadKeyFile(dataDir: string, clock: Clock): Promise<KeyFile> {
  const directory = join(dataDir, 'keys');
  const file = join(directory, LEASE_KEYS_FILE);
  if (!existsSync(file)) {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const key = await newStoredKey(clock.now());
    writeKeyFile(file, { active: key.kid, keys: [key] }, { replace: false });
  }
  return readKeyFile(file);
}

/** Adds a new active key and keeps the last few retired ones for verification (`cli rotate-keys`). */
export async function rotateLeaseKeys(
  dataDir: string,
  clock: Clock,
): Promise<{ kid: string; retired: string[] }> {
  const current = await loadKeyFile(dataDir, clock);
  const key = await newStoredKey(clock.now());
  const kept = current.keys
    .toSorted((a, b) => b.created_at.localeCompare(a.created_at))
    .slice(0, RETIRED_KEYS_KEPT);
  writeKeyFile(
    join(dataDir, 'keys', LEASE_KEYS_FILE),
    { active: key.kid, keys: [key, ...kept] },
    { replace: true },
  );
  return { kid: key.kid, retired: kept.map((stored) => stored.kid) };
}

/** A configured key: a private JWK (JSON) or a PKCS#8 PEM of an Ed25519 key. */
async function configuredKey(text: string): Promise<StoredKey> {
  try {
    const key = text.trim().startsWith('{')
      ? createPrivateKey({ key: JSON.parse(text) as JWK & { kty: string }, format: 'jwk' })
      : createPrivateKey(text);
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`an ${key.asymmetricKeyType} key, not Ed25519`);
    const jwk = key.export({ format: 'jwk' }) as JWK;
    return { kid: await calculateJwkThumbprint(jwk), jwk, created_at: new Date(0).toISOString() };
  } catch (error) {
    throw new ConfigError([
      `LEASE_SIGNING_KEY: not an Ed25519 private key as JWK or PKCS#8 PEM (${error instanceof Error ? error.message : String(error)})`,
    ]);
  }
}

export interface LeaseSignerOptions {
  dataDir: string;
  configuredKey: string | undefined;
  issuer: string;
  ttlSeconds: number;
  clock: Clock;
  /** Takes the offline allowance an online license lease carries (none without it). */
  reserveUsage?: UsageReserver;
}

export async function createLeaseSigner(options: LeaseSignerOptions): Promise<LeaseSigner> {
  const file = options.configuredKey
    ? { active: '', keys: [await configuredKey(options.configuredKey)] }
    : await loadKeyFile(options.dataDir, options.clock);
  const activeKid = file.active || (file.keys[0] as StoredKey).kid;
  const keyObjects = file.keys.map((stored) => ({
    kid: stored.kid,
    key: createPrivateKey({ key: stored.jwk as JWK & { kty: string }, format: 'jwk' }),
  }));
  const active = keyObjects.find((stored) => stored.kid === activeKid) as { kid: string; key: KeyObject };
  const publicKeys: LeaseSigningKeys = {
    keys: [active, ...keyObjects.filter((stored) => stored.kid !== activeKid)].map((stored) =>
      toPublicJwk(stored.key, stored.kid),
    ),
  };

  const base64url = (text: string) => Buffer.from(text).toString('base64url');
  const protectedHeader = base64url(
    JSON.stringify({ alg: LEASE_ALGORITHM, kid: active.kid, typ: LEASE_TYPE }),
  );
  const checkHeader = base64url(
    JSON.stringify({ alg: LEASE_ALGORITHM, kid: active.kid, typ: CHECK_PROOF_TYPE }),
  );

  return {
    async sign(input) {
      const issuedAt = Math.floor(options.clock.now().getTime() / 1000);
      // A lease never outlives the license it vouches for.
      const licenseEnd = input.licenseExpiresAt
        ? Math.floor(Date.parse(input.licenseExpiresAt) / 1000)
        : Infinity;
      const lifetime =
        input.offline?.lifetimeSeconds ?? input.floating?.lifetimeSeconds ?? options.ttlSeconds;
      const expiresAt = Math.min(issuedAt + lifetime, licenseEnd);
      // A license file's machine never reports, and a machine trial has no allowance to share.
      const usage =
        options.reserveUsage && input.metered && !input.offline && !input.machineTrial
          ? await options.reserveUsage({
              licenseId: input.licenseId,
              hardwareId: input.hardwareId,
              activationId: input.activationId,
              features: input.metered,
              expiresAt: new Date(expiresAt * 1000).toISOString(),
            })
          : [];
      // The compact JWS that jose's SignJWT makes, signed synchronously with node:crypto: jose goes
      // through WebCrypto, whose promise job costs several times the Ed25519 signature itself.
      const claims = {
        kfp: input.licenseKey === null ? '' : keyFingerprint(input.licenseKey),
        hwid: input.hardwareId,
        plan: input.plan,
        features: input.features,
        license_expires_at: input.licenseExpiresAt,
        ...(input.seat ? { seat: input.seat } : {}),
        ...(input.trial ? { trial: input.trial } : {}),
        ...(input.updatesUntil ? { updates_until: input.updatesUntil } : {}),
        ...(input.machineTrial ? { machine_trial: true } : {}),
        ...(input.offline ? { offline: { nonce: input.offline.nonce } } : {}),
        ...(input.floating
          ? { floating: { seat_id: input.floating.seatId, borrowed_until: input.floating.borrowedUntil } }
          : {}),
        ...(usage.length > 0 ? { usage } : {}),
        sub: input.licenseId,
        iss: options.issuer,
        aud: LEASE_AUDIENCE,
        iat: issuedAt,
        exp: expiresAt,
        jti: randomUUID(),
      };
      const signingInput = `${protectedHeader}.${base64url(JSON.stringify(claims))}`;
      const signature = signBytes(null, Buffer.from(signingInput), active.key).toString('base64url');
      const lease = `${signingInput}.${signature}`;
      return { lease, expiresAt: new Date(expiresAt * 1000).toISOString() };
    },
    signCheck(input) {
      const issuedAt = Math.floor(options.clock.now().getTime() / 1000);
      const claims: CheckProofClaims = {
        nonce: input.nonce,
        sub: input.licenseId,
        hwid: input.hardwareId,
        lease: createHash('sha256').update(input.lease).digest().subarray(0, 16).toString('base64url'),
        iss: options.issuer,
        aud: LEASE_AUDIENCE,
        iat: issuedAt,
        exp: issuedAt + CHECK_PROOF_SECONDS,
      };
      const signingInput = `${checkHeader}.${base64url(JSON.stringify(claims))}`;
      return `${signingInput}.${signBytes(null, Buffer.from(signingInput), active.key).toString('base64url')}`;
    },
    publicKeys: () => publicKeys,
    activeKeyId: active.kid,
  };
}
