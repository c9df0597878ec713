import { describe, expect, it } from 'vitest';
import { leaseSigningKeysSchema } from '../../../src/shared/api/licenses.js';
import { verifyLease } from '../../../src/shared/lease.js';
import { OFFLINE_FILE_MAX_BYTES, offlineDeactivationProofSchema } from '../../../src/shared/offline-files.js';
import type { PlanRow } from '../../../src/server/platform/db/tables.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  activate,
  activationRow,
  activeSeats,
  createPlan,
  DAY_MS,
  expectActivation,
  giveLicense,
  licenseSuiteOptions,
  machine,
  member,
  planByCode,
} from '../helpers/license-helpers.js';
import {
  expectLicenseFile,
  offlineMachine,
  uploadProof,
  uploadRequest,
} from '../helpers/offline-activation-helpers.js';
import { join, seatOrganisation } from '../helpers/organisation-seat-helpers.js';

const DAY_SECONDS = 86_400;

async function keysOf(s: TestServer) {
  return leaseSigningKeysSchema.parse((await s.api({ path: '/licensing/public-key' })).json());
}

/** An owner with a license of three seats and a machine without network that wrote a request for it. */
async function requested(s: TestServer, plan?: PlanRow) {
  const owner = await member(s);
  // A lifetime plan by default, so the license's end does not cut the offline lifetime short.
  const license = await giveLicense(
    s,
    owner,
    plan ?? (await createPlan(s, { interval: 'lifetime', seats: 3 })),
  );
  const lab = await offlineMachine(s);
  const request = await lab.offline.writeRequest(license.license_key);
  return { owner, license, lab, request };
}

describeOnEveryDatabase(
  'offline activation by file',
  (server) => {
    describe('POST /licenses/offline-activations', () => {
      it("takes a seat as an online activation does and answers a license file bound to the machine, for the plan's offline lifetime", async () => {
        const s = server();
        s.clock.freeze();
        const { license, lab, request, owner } = await requested(s);

        const result = expectLicenseFile(await uploadRequest(s, owner.token, request.contents), 201);
        expect(result).toMatchObject({
          created: true,
          file_name: 'Lab-PC.license.json',
          device_name: 'Lab PC',
          license_file: { license_id: license.id, hardware_id: lab.hardwareId },
        });
        expect(await activeSeats(s, license.id)).toHaveLength(1);
        expect(await activationRow(s, license.id, lab.hardwareId)).toMatchObject({
          device_name: 'Lab PC',
          platform: 'linux',
          app_version: '1.4.2',
          activated_by: owner.id,
        });

        const nowSeconds = Math.floor(s.clock.now().getTime() / 1000);
        const verified = await verifyLease(result.license_file.lease, {
          keys: await keysOf(s),
          hardwareId: lab.hardwareId,
          nowSeconds,
        });
        expect(verified.ok).toBe(true);
        if (!verified.ok) return;
        // The default lifetime (365 days), well past the online leases', and the request's nonce.
        expect(verified.claims.exp - verified.claims.iat).toBe(365 * DAY_SECONDS);
        expect(verified.claims.offline).toEqual({ nonce: result.license_file.nonce });
        expect(JSON.parse(request.contents)).toMatchObject({ nonce: result.license_file.nonce });
        const elsewhere = await verifyLease(result.license_file.lease, {
          keys: await keysOf(s),
          hardwareId: machine(),
          nowSeconds,
        });
        expect(elsewhere).toMatchObject({ ok: false, problem: 'wrong_hardware' });
      });

      it("a plan's own offline lifetime is used, and a license file never outlives its license", async () => {
        const s = server();
        s.clock.freeze();
        const plan = await createPlan(s, { interval: 'lifetime', seats: 3 });
        await s.app.db
          .insertInto('plan_offline_leases')
          .values({ plan_id: plan.id, lease_days: 30 })
          .execute();
        const first = await requested(s, plan);
        const short = expectLicenseFile(
          await uploadRequest(s, first.owner.token, first.request.contents),
          201,
        );
        const lifetime = (Date.parse(short.license_file.expires_at) - s.clock.now().getTime()) / DAY_MS;
        expect(Math.round(lifetime)).toBe(30);

        // A monthly license ends long before the plan's 10 years.
        const monthly = await planByCode(s, 'pro-monthly');
        await s.app.db
          .insertInto('plan_offline_leases')
          .values({ plan_id: monthly.id, lease_days: 3650 })
          .execute();
        const second = await requested(s, monthly);
        const capped = expectLicenseFile(
          await uploadRequest(s, second.owner.token, second.request.contents),
          201,
        );
        const licenseEnd = Math.floor(Date.parse(second.license.expires_at as string) / 1000) * 1000;
        expect(capped.license_file.expires_at).toBe(new Date(licenseEnd).toISOString());
        await s.app.db.deleteFrom('plan_offline_leases').where('plan_id', '=', monthly.id).execute();
      });

      it('the same request uploaded twice, even at once, is one seat and the same license file', async () => {
        const s = server();
        const { license, request, owner } = await requested(s);
        const [a, b] = await Promise.all([
          uploadRequest(s, owner.token, request.contents),
          uploadRequest(s, owner.token, request.contents),
        ]);
        const statuses = [a.statusCode, b.statusCode].sort();
        expect([
          [200, 201],
          [200, 200],
          [201, 201],
        ]).toContainEqual(statuses);
        const again = expectLicenseFile(await uploadRequest(s, owner.token, request.contents), 200);
        expect(again.created).toBe(false);
        expect(again.license_file.lease).toBe(
          expectLicenseFile(a, a.statusCode as 200 | 201).license_file.lease,
        );
        expect(again.license_file.lease).toBe(
          expectLicenseFile(b, b.statusCode as 200 | 201).license_file.lease,
        );
        expect(await activeSeats(s, license.id)).toHaveLength(1);
        expect(
          await s.app.db
            .selectFrom('offline_activations')
            .selectAll()
            .where('license_id', '=', license.id)
            .execute(),
        ).toHaveLength(1);
      });

      it('the seat limit is the online one: a full license refuses with the message naming the limit', async () => {
        const s = server();
        const { license, request, owner } = await requested(s);
        for (const label of ['a', 'b', 'c'])
          expectActivation(await activate(s, owner.token, license.license_key, machine(label)), 201);
        const refused = expectApiError(
          await uploadRequest(s, owner.token, request.contents),
          409,
          'activation_limit_reached',
        );
        expect(refused.message).toContain('seat limit 3');
        expect(
          await s.app.db
            .selectFrom('offline_activations')
            .selectAll()
            .where('license_id', '=', license.id)
            .execute(),
        ).toHaveLength(0);
      });

      it("an organisation's key is refused as online, naming how its members activate", async () => {
        const s = server();
        const owner = await member(s);
        const org = await seatOrganisation(s, owner);
        const someone = await join(s, org);
        const lab = await offlineMachine(s);
        const request = await lab.offline.writeRequest(org.license.license_key);
        const refused = expectApiError(
          await uploadRequest(s, someone.token, request.contents),
          403,
          'activate_by_sign_in',
        );
        expect(refused.message).toContain(org.name);
        expectApiError(await uploadRequest(s, owner.token, request.contents), 403, 'activate_by_sign_in');
      });

      it('bad files are a clear 4xx: not JSON, another kind of file, a changed field, too large', async () => {
        const s = server();
        const { request, owner } = await requested(s);
        const body = JSON.parse(request.contents) as Record<string, unknown>;
        const notJson = await s.api({
          method: 'POST',
          path: '/licenses/offline-activations',
          token: owner.token,
          headers: { 'content-type': 'application/json' },
          body: '{"format": "desktop-ai-assistant.offline-activation-req',
        });
        expect(notJson.statusCode).toBe(400);
        expect(notJson.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
        expect(
          (await uploadRequest(s, owner.token, { ...body, format: 'desktop-ai-assistant.offline-license' }))
            .statusCode,
        ).toBe(400);
        expect((await uploadRequest(s, owner.token, { ...body, version: 2 })).statusCode).toBe(400);
        expect((await uploadRequest(s, owner.token, { ...body, nonce: 'short' })).statusCode).toBe(400);
        expect((await uploadRequest(s, owner.token, { ...body, extra: true })).statusCode).toBe(400);
        expectApiError(
          await uploadRequest(s, owner.token, { ...body, license_key: 'AAAAA-BBBBB' }),
          400,
          'invalid_license_key',
        );
        const huge = await uploadRequest(s, owner.token, {
          ...body,
          device_name: 'x'.repeat(OFFLINE_FILE_MAX_BYTES),
        });
        expect(huge.statusCode).toBe(413);
        // The nonce of a request taken for one machine cannot be reused for another.
        expectLicenseFile(await uploadRequest(s, owner.token, body), 201);
        expectApiError(
          await uploadRequest(s, owner.token, { ...body, hardware_id: machine('other') }),
          409,
          'offline_request_mismatch',
        );
        // Nor for another license: refused before a seat of that license is taken.
        const other = await giveLicense(s, owner, await createPlan(s, { interval: 'lifetime', seats: 3 }));
        expectApiError(
          await uploadRequest(s, owner.token, { ...body, license_key: other.license_key }),
          409,
          'offline_request_mismatch',
        );
        expect(await activeSeats(s, other.id)).toHaveLength(0);
      });
    });

    describe('POST /licenses/offline-deactivations', () => {
      it("the machine's signed-out proof frees the seat once; the proof again, or its request again, is refused", async () => {
        const s = server();
        const { license, lab, request, owner } = await requested(s);
        const result = expectLicenseFile(await uploadRequest(s, owner.token, request.contents), 201);
        expect((await lab.offline.importLicenseFile(JSON.stringify(result.license_file))).ok).toBe(true);
        const proof = await lab.offline.signOut();
        expect(proof?.fileName).toBe('Lab-PC.signed-out.json');

        const freed = await uploadProof(s, owner.token, proof?.contents);
        expect(freed.statusCode, freed.body).toBe(200);
        expect(freed.json()).toMatchObject({
          license_id: license.id,
          hardware_id: lab.hardwareId,
          device_name: 'Lab PC',
        });
        expect(await activeSeats(s, license.id)).toHaveLength(0);
        expect(await activationRow(s, license.id, lab.hardwareId)).toMatchObject({
          deactivated_reason: 'user',
        });

        expectApiError(await uploadProof(s, owner.token, proof?.contents), 409, 'offline_proof_used');
        expectApiError(
          await uploadRequest(s, owner.token, request.contents),
          409,
          'offline_request_signed_out',
        );
        expect(await activeSeats(s, license.id)).toHaveLength(0);
      });

      it('a proof not signed by the machine, or changed after it was signed, is refused and the seat stays', async () => {
        const s = server();
        const { license, lab, request, owner } = await requested(s);
        const result = expectLicenseFile(await uploadRequest(s, owner.token, request.contents), 201);
        await lab.offline.importLicenseFile(JSON.stringify(result.license_file));
        const proof = offlineDeactivationProofSchema.parse(
          JSON.parse((await lab.offline.signOut())?.contents ?? ''),
        );

        // Another installation signs a proof for the same license file.
        const impostor = await offlineMachine(s);
        const other = await impostor.offline.writeRequest(license.license_key);
        const otherFile = expectLicenseFile(await uploadRequest(s, owner.token, other.contents), 201);
        await impostor.offline.importLicenseFile(JSON.stringify(otherFile.license_file));
        const otherProof = offlineDeactivationProofSchema.parse(
          JSON.parse((await impostor.offline.signOut())?.contents ?? ''),
        );
        expectApiError(
          await uploadProof(s, owner.token, { ...proof, signature: otherProof.signature }),
          400,
          'offline_proof_invalid',
        );
        expectApiError(
          await uploadProof(s, owner.token, { ...proof, deactivated_at: new Date(0).toISOString() }),
          400,
          'offline_proof_invalid',
        );
        expectApiError(
          await uploadProof(s, owner.token, { ...proof, nonce: otherProof.nonce }),
          400,
          'offline_proof_invalid',
        );
        expect((await uploadProof(s, owner.token, { ...proof, signature: 'x' })).statusCode).toBe(400);
        expect(await activeSeats(s, license.id)).toHaveLength(2);

        // Someone else's account cannot free the machine even with its proof.
        const stranger = await member(s);
        expectApiError(await uploadProof(s, stranger.token, proof), 404, 'license_not_found');
        expect(await activeSeats(s, license.id)).toHaveLength(2);
        expect((await uploadProof(s, owner.token, proof)).statusCode).toBe(200);
        expect(await activeSeats(s, license.id)).toHaveLength(1);
      });
    });

    describe('administrators', () => {
      it("upload a request for any license (the seat is the owner's) and its proof", async () => {
        const s = server();
        const admin = await member(s, 'admin');
        const { license, lab, request, owner } = await requested(s);
        const result = expectLicenseFile(
          await uploadRequest(s, admin.token, request.contents, { admin: true }),
          201,
        );
        expect(await activationRow(s, license.id, lab.hardwareId)).toMatchObject({ activated_by: owner.id });
        expect(
          await s.app.db
            .selectFrom('offline_activations')
            .select('uploaded_by')
            .where('license_id', '=', license.id)
            .executeTakeFirst(),
        ).toEqual({ uploaded_by: admin.id });
        await lab.offline.importLicenseFile(JSON.stringify(result.license_file));
        const proof = await lab.offline.signOut();
        expect((await uploadProof(s, admin.token, proof?.contents, { admin: true })).statusCode).toBe(200);
        expect(await activeSeats(s, license.id)).toHaveLength(0);
        expectApiError(
          await uploadProof(s, admin.token, proof?.contents, { admin: true }),
          409,
          'offline_proof_used',
        );
      });

      it('a key no license has is 404', async () => {
        const s = server();
        const admin = await member(s, 'admin');
        const lab = await offlineMachine(s);
        const owner = await member(s);
        const license = await giveLicense(s, owner, 'pro-monthly');
        const body = JSON.parse((await lab.offline.writeRequest(license.license_key)).contents) as Record<
          string,
          unknown
        >;
        await s.app.db.deleteFrom('licenses').where('id', '=', license.id).execute();
        expectApiError(await uploadRequest(s, admin.token, body, { admin: true }), 404, 'license_not_found');
      });
    });
  },
  licenseSuiteOptions,
);
