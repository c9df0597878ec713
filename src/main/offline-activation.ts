import { createPrivateKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { z } from 'zod';
import type { LeaseSigningKeys } from '../shared/api/licenses.js';
import type { LicenseCheckResult } from '../shared/bridge.js';
import { type LeaseClaims, type LeaseProblem, verifyLease } from '../shared/lease.js';
import { normalizeLicenseKey } from '../shared/license-key.js';
import {
  OFFLINE_FILE_MAX_BYTES,
  OFFLINE_FORMATS,
  OFFLINE_LEASE_MAX_LIFETIME_SECONDS,
  type OfflineActivationRequest,
  type OfflineDeactivationProof,
  offlineFileName,
  offlineLicenseFileSchema,
  offlineProofSigningInput,
} from '../shared/offline-files.js';
import { readJsonFile, writeJsonFile } from './json-file.js';
import { keyFingerprint, type LicenseChecker } from './licensing.js';

/** How many requests written here are remembered until a license file answers one. */
const PENDING_REQUESTS_KEPT = 20;

const storeSchema = z.object({
  version: z.literal(1),
  /**
   * This installation's own Ed25519 key (private JWK). Its public half travels in each request, so
   * only this machine can write the proof that gives the seat back.
   */
  installation_key: z
    .object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string(), d: z.string() })
    .nullable(),
  /** Requests written here and not yet answered: a license file must answer one of them. */
  requests: z.array(z.object({ nonce: z.string(), license_key: z.string(), created_at: z.string() })),
  /** The imported license file and the key its request named. */
  license: z.object({ file: offlineLicenseFileSchema, license_key: z.string() }).nullable(),
  /** Nonces of license files signed out here: the same file imported again is refused. */
  signed_out: z.array(z.string()),
  /** The latest time (seconds) this machine's clock showed while reading the license file. */
  last_seen_seconds: z.number().int().nonnegative(),
});
type Store = z.infer<typeof storeSchema>;

const emptyStore = (): Store => ({
  version: 1,
  installation_key: null,
  requests: [],
  license: null,
  signed_out: [],
  last_seen_seconds: 0,
});

/** A file the app writes for the user to carry to a device with a browser. */
export interface OfflineFile {
  fileName: string;
  contents: string;
}

export type ImportProblem =
  LeaseProblem | 'not_a_license_file' | 'no_trusted_keys' | 'not_requested_here' | 'signed_out' | 'mismatch';

export type ImportOutcome =
  { ok: true; result: LicenseCheckResult } | { ok: false; problem: ImportProblem; message: string };

const importMessages: Partial<Record<ImportProblem, string>> = {
  not_a_license_file:
    'This is not a license file. Choose the file the portal gave for this machine’s activation request.',
  no_trusted_keys:
    'This build of the app has no license server keys built in, so it cannot check a license file.',
  not_requested_here:
    'This license file does not answer an activation request written on this machine. Write a request here and upload it in the portal.',
  signed_out:
    'This license file was signed out on this machine; its seat was given back. Write a new activation request.',
  mismatch: 'This license file has been altered; download it again from the portal.',
  wrong_hardware: 'This license file is for another machine.',
  expired: 'This license file has expired. Write a new activation request and upload it in the portal.',
  lifetime_too_long: 'This license file claims a longer validity than the license server issues.',
};

export interface OfflineActivationOptions {
  /** JSON file under the app's user data (readable by this user only). */
  path: string;
  hardwareId: () => string;
  /** The pinned lease keys (MAIN_VITE_LEASE_PUBLIC_KEYS): a license file verifies only under them. */
  trustedKeys: LeaseSigningKeys | undefined;
  now: () => Date;
  app: { version: string; platform: string };
  deviceName: () => string;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * Activation by file, for machines that never go online: the app writes a request (key, machine,
 * nonce and this installation's public key), imports the license file the portal answered after
 * checking it as strictly as an online lease (pinned keys, this machine, lifetime, expiry, clock),
 * answers license checks from it until it expires, and gives the seat back by writing a proof
 * signed with the installation's key, after which the same license file is refused here.
 */
export function createOfflineActivation(options: OfflineActivationOptions) {
  const read = async (): Promise<Store> => {
    const parsed = storeSchema.safeParse(await readJsonFile(options.path));
    return parsed.success ? parsed.data : emptyStore();
  };
  let queue: Promise<unknown> = Promise.resolve();
  /** Changes run one after another, each on the latest file. */
  const update = <T>(change: (store: Store) => Promise<[Store, T]> | [Store, T]): Promise<T> => {
    const next = queue.then(async () => {
      const [store, value] = await change(await read());
      await writeJsonFile(options.path, storeSchema.parse(store));
      return value;
    });
    queue = next.catch(() => undefined);
    return next;
  };

  const verify = (token: string, store: Store, nowSeconds: number, keys: LeaseSigningKeys) =>
    verifyLease(token, {
      keys,
      hardwareId: options.hardwareId(),
      nowSeconds,
      lastSeenSeconds: store.last_seen_seconds,
      maxLifetimeSeconds: OFFLINE_LEASE_MAX_LIFETIME_SECONDS,
    });

  return {
    /** Writes an activation request for the key; the request is remembered until a file answers it. */
    writeRequest(licenseKey: string): Promise<OfflineFile> {
      const key = normalizeLicenseKey(licenseKey) ?? licenseKey.trim();
      return update((store) => {
        const installationKey =
          store.installation_key ??
          (generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }) as NonNullable<
            Store['installation_key']
          >);
        const createdAt = options.now().toISOString();
        const deviceName = options.deviceName().slice(0, 100);
        const request: OfflineActivationRequest = {
          format: OFFLINE_FORMATS.request,
          version: 1,
          license_key: key,
          hardware_id: options.hardwareId(),
          device_name: deviceName,
          platform: options.app.platform,
          app_version: options.app.version,
          nonce: randomBytes(32).toString('base64url'),
          created_at: createdAt,
          installation_key: { kty: 'OKP', crv: 'Ed25519', x: installationKey.x },
        };
        const requests = [
          ...store.requests,
          { nonce: request.nonce, license_key: key, created_at: createdAt },
        ].slice(-PENDING_REQUESTS_KEPT);
        return [
          { ...store, installation_key: installationKey, requests },
          {
            fileName: offlineFileName(deviceName, 'activation-request'),
            contents: `${JSON.stringify(request, null, 2)}\n`,
          },
        ];
      });
    },

    /** Checks and keeps a license file; refused files leave whatever was imported before. */
    importLicenseFile(text: string): Promise<ImportOutcome> {
      const refuse = (problem: ImportProblem, message?: string): ImportOutcome => ({
        ok: false,
        problem,
        message: importMessages[problem] ?? message ?? 'This license file cannot be used.',
      });
      return update(async (store): Promise<[Store, ImportOutcome]> => {
        let json: unknown;
        try {
          json = text.length <= OFFLINE_FILE_MAX_BYTES ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        const parsed = offlineLicenseFileSchema.safeParse(json);
        if (!parsed.success) return [store, refuse('not_a_license_file')];
        const file = parsed.data;
        if (!options.trustedKeys) return [store, refuse('no_trusted_keys')];
        if (store.signed_out.includes(file.nonce)) return [store, refuse('signed_out')];
        const nowSeconds = seconds(options.now());
        const verification = await verify(file.lease, store, nowSeconds, options.trustedKeys);
        if (!verification.ok) return [store, refuse(verification.problem, verification.message)];
        const { claims } = verification;
        // The file's readable fields must say what the signed lease says.
        if (
          claims.offline?.nonce !== file.nonce ||
          claims.sub !== file.license_id ||
          claims.hwid !== file.hardware_id ||
          new Date(claims.exp * 1000).toISOString() !== file.expires_at
        )
          return [store, refuse('mismatch')];
        const request = store.requests.find((pending) => pending.nonce === file.nonce);
        if (!request || claims.kfp !== keyFingerprint(request.license_key))
          return [store, refuse('not_requested_here')];
        const next: Store = {
          ...store,
          requests: store.requests.filter((pending) => pending.nonce !== file.nonce),
          license: { file, license_key: request.license_key },
          last_seen_seconds: Math.max(store.last_seen_seconds, nowSeconds),
        };
        return [next, { ok: true, result: answerOf(claims, verification.remainingSeconds, options.now()) }];
      });
    },

    /**
     * The license status from the imported file, or null without one. A file that can never
     * verify again (altered, another machine's, unknown key) is forgotten.
     */
    check(): Promise<LicenseCheckResult | null> {
      return update(async (store): Promise<[Store, LicenseCheckResult | null]> => {
        if (!store.license || !options.trustedKeys) return [store, null];
        const nowSeconds = seconds(options.now());
        const verification = await verify(store.license.file.lease, store, nowSeconds, options.trustedKeys);
        if (!verification.ok) {
          const usable = verification.problem === 'expired' || verification.problem === 'clock_rolled_back';
          return [
            usable ? store : { ...store, license: null },
            {
              valid: false,
              status: verification.problem === 'expired' ? 'expired' : 'error',
              message: importMessages[verification.problem] ?? verification.message,
              license_id: store.license.file.license_id,
            },
          ];
        }
        return [
          { ...store, last_seen_seconds: Math.max(store.last_seen_seconds, nowSeconds) },
          answerOf(verification.claims, verification.remainingSeconds, options.now()),
        ];
      });
    },

    /** The imported license file's license and end, or null. */
    async current(): Promise<{ license_id: string; expires_at: string; license_key: string } | null> {
      const { license } = await read();
      return license
        ? {
            license_id: license.file.license_id,
            expires_at: license.file.expires_at,
            license_key: license.license_key,
          }
        : null;
    },

    /**
     * Forgets the license file and writes the proof that gives its seat back, signed with this
     * installation's key; null when no license file is imported.
     */
    signOut(): Promise<OfflineFile | null> {
      return update((store): [Store, OfflineFile | null] => {
        if (!store.license || !store.installation_key) return [store, null];
        const { file } = store.license;
        const leaseId = (
          JSON.parse(Buffer.from(file.lease.split('.')[1] ?? '', 'base64url').toString()) as { jti: string }
        ).jti;
        const unsigned: Omit<OfflineDeactivationProof, 'signature'> = {
          format: OFFLINE_FORMATS.proof,
          version: 1,
          license_id: file.license_id,
          hardware_id: file.hardware_id,
          nonce: file.nonce,
          lease_id: leaseId,
          deactivated_at: options.now().toISOString(),
        };
        const privateKey = createPrivateKey({ key: store.installation_key, format: 'jwk' });
        const signature = sign(null, Buffer.from(offlineProofSigningInput(unsigned)), privateKey).toString(
          'base64url',
        );
        const proof: OfflineDeactivationProof = { ...unsigned, signature };
        return [
          { ...store, license: null, signed_out: [...store.signed_out, file.nonce] },
          {
            fileName: offlineFileName(options.deviceName(), 'signed-out'),
            contents: `${JSON.stringify(proof, null, 2)}\n`,
          },
        ];
      });
    },
  };
}

export type OfflineActivation = ReturnType<typeof createOfflineActivation>;

/** A license file's lease as a status-check answer, shaped as the online lease's offline answer. */
function answerOf(claims: LeaseClaims, remainingSeconds: number, now: Date): LicenseCheckResult {
  const expired =
    claims.license_expires_at !== null && Date.parse(claims.license_expires_at) <= now.getTime();
  return {
    valid: !expired,
    status: expired ? 'expired' : 'active',
    message: expired
      ? 'This license has expired.'
      : `Activated by license file, valid offline for ${Math.ceil(remainingSeconds / 86_400)} more days.`,
    requires_activation: false,
    license_id: claims.sub,
    expires_at: claims.license_expires_at,
    ...(claims.seat ? { seat: claims.seat } : {}),
    offline: {
      lease_expires_at: new Date(claims.exp * 1000).toISOString(),
      grace_remaining_seconds: remainingSeconds,
    },
  };
}

/**
 * The app's license check with a license file: while one is imported the status comes from it
 * (the machine was activated by file, so the network is not asked); otherwise the usual check.
 */
export function withLicenseFile(checker: LicenseChecker, offline: OfflineActivation): LicenseChecker {
  return {
    async check() {
      return (await offline.check()) ?? checker.check();
    },
  };
}
