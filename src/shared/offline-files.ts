import { z } from 'zod';
import { displayText, isoDateTimeSchema } from './api/common.js';
import { hardwareIdSchema, licenseIdSchema, licenseKeyInputSchema } from './api/licenses.js';

/**
 * The files that carry an activation to and from a machine that never goes online: the app writes
 * a request, the portal answers a license file, and the app writes a signed-out proof when it gives
 * the seat back. Each is versioned JSON named by its `format`, so a file of one kind uploaded as
 * another is refused by its name rather than by a missing field.
 */

/** The largest file of any of the three kinds; anything bigger is not one of them. */
export const OFFLINE_FILE_MAX_BYTES = 16 * 1024;

export const OFFLINE_FORMATS = {
  request: 'desktop-ai-assistant.offline-activation-request',
  license: 'desktop-ai-assistant.offline-license',
  proof: 'desktop-ai-assistant.offline-deactivation-proof',
} as const;

/** 32 random bytes, base64url: names one request, its license file and its proof. */
export const offlineNonceSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, 'The nonce must be 32 bytes in base64url')
  .describe('32 random bytes, base64url');

/**
 * The public half of the installation's own Ed25519 key. It travels in the request so the server
 * can later tell a signed-out proof from this machine from one written anywhere else.
 */
export const installationKeySchema = z
  .strictObject({
    kty: z.literal('OKP'),
    crv: z.literal('Ed25519'),
    x: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Not an Ed25519 public key'),
  })
  .meta({ id: 'OfflineInstallationKey' });
export type InstallationKey = z.infer<typeof installationKeySchema>;

export const offlineActivationRequestSchema = z
  .strictObject({
    format: z.literal(OFFLINE_FORMATS.request),
    version: z.literal(1),
    license_key: licenseKeyInputSchema,
    hardware_id: hardwareIdSchema,
    device_name: displayText(100).optional(),
    platform: displayText(40).optional(),
    app_version: displayText(40).optional(),
    nonce: offlineNonceSchema,
    created_at: isoDateTimeSchema,
    installation_key: installationKeySchema,
  })
  .meta({ id: 'OfflineActivationRequest' });
export type OfflineActivationRequest = z.infer<typeof offlineActivationRequestSchema>;

export const offlineLicenseFileSchema = z
  .strictObject({
    format: z.literal(OFFLINE_FORMATS.license),
    version: z.literal(1),
    license_id: licenseIdSchema,
    hardware_id: hardwareIdSchema,
    nonce: offlineNonceSchema,
    lease: z.string().min(1).describe('Ed25519-signed compact JWS; verify with GET /licensing/public-key'),
    expires_at: isoDateTimeSchema,
  })
  .meta({ id: 'OfflineLicenseFile' });
export type OfflineLicenseFile = z.infer<typeof offlineLicenseFileSchema>;

export const offlineDeactivationProofSchema = z
  .strictObject({
    format: z.literal(OFFLINE_FORMATS.proof),
    version: z.literal(1),
    license_id: licenseIdSchema,
    hardware_id: hardwareIdSchema,
    nonce: offlineNonceSchema,
    /** The `jti` of the license file's lease that the machine forgot. */
    lease_id: z.uuid('Not a lease id'),
    deactivated_at: isoDateTimeSchema,
    signature: z
      .string()
      .regex(/^[A-Za-z0-9_-]{86}$/, 'Not an Ed25519 signature')
      .describe("Ed25519 signature by the installation's key over offlineProofSigningInput"),
  })
  .meta({ id: 'OfflineDeactivationProof' });
export type OfflineDeactivationProof = z.infer<typeof offlineDeactivationProofSchema>;

/** The exact bytes a proof's signature covers: every field but the signature, in a fixed order. */
export const offlineProofSigningInput = (proof: Omit<OfflineDeactivationProof, 'signature'>) =>
  [
    proof.format,
    proof.version,
    proof.license_id,
    proof.hardware_id,
    proof.nonce,
    proof.lease_id,
    proof.deactivated_at,
  ].join('\n');

/** A file name that says what the file is and which machine it is for. */
export const offlineFileName = (
  deviceName: string | undefined,
  kind: 'activation-request' | 'license' | 'signed-out',
) => {
  const device =
    (deviceName ?? 'machine').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'machine';
  return `${device}.${kind}.json`;
};

/** The longest offline license the server issues; the app refuses a file that claims more. */
export const OFFLINE_LEASE_MAX_LIFETIME_SECONDS = 3 * 366 * 86_400;
/** An offline license's lifetime when its plan sets none. */
export const DEFAULT_OFFLINE_LEASE_DAYS = 365;
