import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createOfflineActivation, type OfflineActivation } from '../../../src/main/offline-activation.js';
import { leaseSigningKeysSchema } from '../../../src/shared/api/licenses.js';
import {
  type OfflineActivationResult,
  offlineActivationResultSchema,
} from '../../../src/shared/api/offline-activation.js';
import type { TestServer } from '../../support/test-server.js';
import { machine } from './license-helpers.js';

/**
 * A desktop machine without network, as the app's own main-process code runs it (in Node): it
 * writes activation requests, imports license files and writes signed-out proofs, on the test
 * server's clock and with the server's lease keys pinned as a build pins them.
 */
export interface OfflineMachine {
  hardwareId: string;
  offline: OfflineActivation;
}

export async function offlineMachine(s: TestServer, deviceName = 'Lab PC'): Promise<OfflineMachine> {
  const keys = leaseSigningKeysSchema.parse((await s.api({ path: '/licensing/public-key' })).json());
  const hardwareId = machine('lab');
  const offline = createOfflineActivation({
    path: join(await mkdtemp(join(tmpdir(), 'offline-activation-')), 'offline-activation.json'),
    hardwareId: () => hardwareId,
    trustedKeys: keys,
    now: () => s.clock.now(),
    app: { version: '1.4.2', platform: 'linux' },
    deviceName: () => deviceName,
  });
  return { hardwareId, offline };
}

export const uploadRequest = (s: TestServer, token: string, file: unknown, { admin = false } = {}) =>
  s.api({
    method: 'POST',
    path: admin ? '/admin/offline-activations' : '/licenses/offline-activations',
    token,
    body: typeof file === 'string' ? JSON.parse(file) : file,
  });

export const uploadProof = (s: TestServer, token: string, file: unknown, { admin = false } = {}) =>
  s.api({
    method: 'POST',
    path: admin ? '/admin/offline-deactivations' : '/licenses/offline-deactivations',
    token,
    body: typeof file === 'string' ? JSON.parse(file) : file,
  });

export function expectLicenseFile(
  response: Awaited<ReturnType<TestServer['api']>>,
  status: 200 | 201,
): OfflineActivationResult {
  expect(response.statusCode, response.body).toBe(status);
  return offlineActivationResultSchema.parse(response.json());
}

/** A request file the machine wrote for the key, parsed: what an upload sends. */
export async function requestBody(s: TestServer, licenseKey: string): Promise<Record<string, unknown>> {
  const lab = await offlineMachine(s);
  return JSON.parse((await lab.offline.writeRequest(licenseKey)).contents) as Record<string, unknown>;
}

/**
 * A signed-out proof ready to upload: a machine's request for the key taken by an administrator,
 * its license file imported, then signed out.
 */
export async function proofBody(
  s: TestServer,
  adminToken: string,
  licenseKey: string,
): Promise<Record<string, unknown>> {
  const lab = await offlineMachine(s);
  const request = await lab.offline.writeRequest(licenseKey);
  const result = expectLicenseFile(
    await uploadRequest(s, adminToken, request.contents, { admin: true }),
    201,
  );
  const imported = await lab.offline.importLicenseFile(JSON.stringify(result.license_file));
  expect(imported.ok).toBe(true);
  const proof = await lab.offline.signOut();
  return JSON.parse(proof?.contents ?? '') as Record<string, unknown>;
}
