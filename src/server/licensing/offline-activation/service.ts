import { createPublicKey, randomUUID, verify } from 'node:crypto';
import type {
  OfflineActivationResult,
  OfflineDeactivationResult,
} from '../../../shared/api/offline-activation.js';
import { normalizeLicenseKey } from '../../../shared/license-key.js';
import {
  DEFAULT_OFFLINE_LEASE_DAYS,
  type InstallationKey,
  type OfflineActivationRequest,
  type OfflineDeactivationProof,
  OFFLINE_FORMATS,
  offlineFileName,
  offlineProofSigningInput,
} from '../../../shared/offline-files.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { OfflineActivationRow } from '../../platform/db/tables-offline-activation.js';
import type { UserRow } from '../../platform/db/tables.js';
import { badRequest, conflict, notFound } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import type { LeaseSigner } from '../leases/lease-signer.js';
import { findLicenseById, findLicenseByKey } from '../licenses/repository.js';
import type { LicensesService } from '../licenses/service.js';
import { findUserById } from '../../identity/index.js';
import {
  findOfflineActivationByNonce,
  insertOfflineActivation,
  markOfflineDeactivated,
  planOfflineLeaseDays,
} from './repository.js';

/** Who uploads: the signed-in customer for their own licenses, or an administrator for any. */
export type Uploader = { kind: 'customer'; user: UserRow } | { kind: 'admin'; user: UserRow };

const requestSpent = () =>
  conflict(
    'offline_request_signed_out',
    'This activation request was already signed out with its proof. Write a new activation request in the app.',
  );
const requestMismatch = () =>
  conflict(
    'offline_request_mismatch',
    'This activation request does not match the one uploaded before under the same nonce. Write a new activation request in the app.',
  );
const unknownRequest = () =>
  notFound(
    'offline_activation_not_found',
    'No license file was issued for this proof. Upload it where the activation request was uploaded.',
  );
const badProof = () =>
  badRequest(
    'offline_proof_invalid',
    'This signed-out proof was not signed by the machine it names, or was altered after it was written.',
  );
const proofSpent = () =>
  conflict('offline_proof_used', 'This machine was already signed out with this proof; its seat is free.');

const sameKey = (stored: string, key: InstallationKey) => {
  const parsed = JSON.parse(stored) as InstallationKey;
  return parsed.x === key.x;
};

function proofVerifies(proof: OfflineDeactivationProof, installationKey: string): boolean {
  try {
    const key = createPublicKey({ key: JSON.parse(installationKey) as InstallationKey, format: 'jwk' });
    const { signature, ...signed } = proof;
    return verify(
      null,
      Buffer.from(offlineProofSigningInput(signed)),
      key,
      Buffer.from(signature, 'base64url'),
    );
  } catch {
    return false;
  }
}

/**
 * Activation by file for machines that never go online. The seat is taken and freed by the
 * licenses' own activation service, so its seat limits, access rules and organisation refusals are
 * the online ones; what is added is the license file (a lease with the plan's offline lifetime and
 * the request's nonce), kept by nonce so the same request answers the same seat and file, and the
 * proof that frees the seat, checked against the key the machine sent with its request.
 */
export function createOfflineActivationService({
  db,
  clock,
  leases,
  licenses,
}: {
  db: Db;
  clock: Clock;
  leases: LeaseSigner;
  licenses: LicensesService;
}) {
  /** The account the seat is taken or freed for: the license owner's when an administrator uploads. */
  async function actingUser(uploader: Uploader, licenseOwnerId: string): Promise<UserRow> {
    if (uploader.kind === 'customer') return uploader.user;
    const owner = await findUserById(db, licenseOwnerId);
    if (!owner) throw notFound('license_not_found', 'License not found');
    return owner;
  }

  async function ownerOfKey(typedKey: string): Promise<string> {
    const key = normalizeLicenseKey(typedKey);
    const row = key ? await findLicenseByKey(db, key) : undefined;
    if (!row) throw notFound('license_not_found', 'No license has this key');
    return row.user_id;
  }

  function answer(
    row: OfflineActivationRow,
    deviceName: string | null,
    created: boolean,
  ): OfflineActivationResult {
    return {
      license_file: {
        format: OFFLINE_FORMATS.license,
        version: 1,
        license_id: row.license_id,
        hardware_id: row.hardware_id,
        nonce: row.nonce,
        lease: row.lease,
        expires_at: row.lease_expires_at,
      },
      file_name: offlineFileName(deviceName ?? undefined, 'license'),
      created,
      device_name: deviceName,
      message: created
        ? 'The machine is activated. Carry the license file to it and import it in the app.'
        : 'This request was uploaded before: here is the same license file, on the same seat.',
    };
  }

  return {
    async activate(
      uploader: Uploader,
      request: OfflineActivationRequest,
      meta: RequestMeta | null,
    ): Promise<OfflineActivationResult> {
      const existing = await findOfflineActivationByNonce(db, request.nonce);
      if (existing?.deactivated_at) throw requestSpent();
      // Checked before any seat is taken: a request reusing a nonce must not activate anything.
      if (
        existing &&
        (existing.hardware_id !== request.hardware_id ||
          !sameKey(existing.installation_key, request.installation_key) ||
          (await findLicenseById(db, existing.license_id))?.license_key !==
            normalizeLicenseKey(request.license_key))
      )
        throw requestMismatch();

      const user =
        uploader.kind === 'admin'
          ? await actingUser(uploader, await ownerOfKey(request.license_key))
          : uploader.user;
      // The online activation itself: the same access rule, seat limit and refusals; idempotent
      // per machine, so the same request again keeps its one seat.
      const device = {
        license_key: request.license_key,
        hardware_id: request.hardware_id,
        device_name: request.device_name,
        platform: request.platform,
        app_version: request.app_version,
      };
      const { created: _created, ...result } = await licenses.activate(user, device, meta);
      const deviceName = result.activation.device_name ?? request.device_name ?? null;
      if (existing) return answer(existing, deviceName, false);

      const row = await findLicenseById(db, result.license_id);
      if (!row) throw notFound('license_not_found', 'License not found');
      const days = (await planOfflineLeaseDays(db, result.plan.id)) ?? DEFAULT_OFFLINE_LEASE_DAYS;
      const signed = await leases.sign({
        licenseId: row.id,
        licenseKey: row.license_key,
        hardwareId: request.hardware_id,
        plan: { id: result.plan.id, code: result.plan.code, name: result.plan.name },
        features: result.usage_info.features.map(({ key, kind, limit }) => ({ key, kind, limit })),
        licenseExpiresAt: row.expires_at,
        offline: { nonce: request.nonce, lifetimeSeconds: days * 86_400 },
      });
      const leaseId = (
        JSON.parse(Buffer.from(signed.lease.split('.')[1] ?? '', 'base64url').toString()) as { jti: string }
      ).jti;
      const record: OfflineActivationRow = {
        id: randomUUID(),
        nonce: request.nonce,
        license_id: row.id,
        activation_id: result.activation.activation_id,
        hardware_id: request.hardware_id,
        installation_key: JSON.stringify(request.installation_key),
        lease: signed.lease,
        lease_id: leaseId,
        lease_expires_at: signed.expiresAt,
        uploaded_by: uploader.user.id,
        created_at: clock.now().toISOString(),
        deactivated_at: null,
        deactivated_by: null,
      };
      try {
        await insertOfflineActivation(db, record);
      } catch (error) {
        // The same request uploaded twice at once: the first one's file is the answer.
        if (!isUniqueViolation(error)) throw error;
        const winner = await findOfflineActivationByNonce(db, request.nonce);
        if (!winner) throw error;
        return answer(winner, deviceName, false);
      }
      return answer(record, deviceName, true);
    },

    async deactivate(
      uploader: Uploader,
      proof: OfflineDeactivationProof,
    ): Promise<OfflineDeactivationResult> {
      const record = await findOfflineActivationByNonce(db, proof.nonce);
      if (!record) throw unknownRequest();
      if (
        record.license_id !== proof.license_id ||
        record.hardware_id !== proof.hardware_id ||
        record.lease_id !== proof.lease_id ||
        !proofVerifies(proof, record.installation_key)
      )
        throw badProof();
      if (record.deactivated_at) throw proofSpent();
      const license = await findLicenseById(db, record.license_id);
      if (!license) throw unknownRequest();
      const user = await actingUser(uploader, license.user_id);
      // The licenses' own deactivation: a customer may free only a machine they may manage.
      const view = await licenses.deactivate(user, record.license_id, {
        activation_id: record.activation_id,
      });
      const at = clock.now().toISOString();
      if (!(await markOfflineDeactivated(db, record.id, at, uploader.user.id))) throw proofSpent();
      const machine = view.activations?.find(
        (activation) => activation.activation_id === record.activation_id,
      );
      return {
        license_id: record.license_id,
        hardware_id: record.hardware_id,
        device_name: machine?.device_name ?? null,
        deactivated_at: at,
        message: 'The machine is signed out and its seat is free.',
      };
    },
  };
}

export type OfflineActivationService = ReturnType<typeof createOfflineActivationService>;
