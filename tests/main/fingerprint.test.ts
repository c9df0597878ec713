import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DESKTOP_API_KEY } from '../../src/main/desktop-config.js';
import {
  type ComponentSources,
  createFingerprintProvider,
  deriveHardwareId,
  hashComponent,
  osComponentSources,
} from '../../src/main/hardware-id.js';
import { createLicenseStateFile } from '../../src/main/license-state.js';
import { createLicenseChecker } from '../../src/main/licensing.js';
import { createLicensingApi } from '../../src/main/licensing-api.js';
import { FINGERPRINT_COMPONENTS } from '../../src/shared/fingerprint.js';
import { describeOnEveryDatabase, type TestServer } from '../support/test-server.js';
import {
  activate,
  activeSeats,
  createPlan,
  expectActivation,
  giveLicense,
  licenseSuiteOptions,
  member,
} from '../server/helpers/license-helpers.js';

const RAW = {
  machine_id: 'f1e2d3c4b5a6978800112233445566aa',
  cpu: 'x64 Intel(R) Core(TM) i7-8650U x8',
  disk: 'nvme-Samsung_SSD_970_EVO_Plus_1TB_S4EWNX0R123456A',
  board: 'LENOVO 20L8S2N800',
  os_install: 'linux 1690000000000',
};
const sourcesOf = (raw: Partial<Record<keyof typeof RAW, string>>): ComponentSources =>
  Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, () => value]));

describe('desktop main: fingerprint components', () => {
  it('are hashed with the product’s salt, one SHA-256 per part; no raw serial is in them', () => {
    const components = createFingerprintProvider(sourcesOf(RAW))();
    expect(Object.keys(components ?? {}).sort()).toEqual([...FINGERPRINT_COMPONENTS].sort());
    for (const name of FINGERPRINT_COMPONENTS) {
      expect(components?.[name]).toBe(hashComponent(name, RAW[name]));
      expect(components?.[name]).toMatch(/^[0-9a-f]{64}$/);
    }
    const text = JSON.stringify(components);
    for (const raw of Object.values(RAW)) expect(text).not.toContain(raw);
    // Another product's salt gives other hashes of the same parts.
    expect(hashComponent('disk', RAW.disk, 'another-product')).not.toBe(components?.disk);
  });

  it('a part the OS does not tell is left out; without the machine id none are sent', () => {
    const withoutDisk = createFingerprintProvider(sourcesOf({ ...RAW, disk: '' }))();
    expect(withoutDisk && 'disk' in withoutDisk).toBe(false);
    const failing: ComponentSources = {
      ...sourcesOf(RAW),
      board: () => {
        throw new Error('EACCES');
      },
    };
    expect(createFingerprintProvider(failing)()?.board).toBeUndefined();
    expect(createFingerprintProvider(sourcesOf({ cpu: RAW.cpu }))()).toBeUndefined();
  });

  it('this machine’s own sources give at least its machine id and CPU', () => {
    const components = createFingerprintProvider(osComponentSources())();
    expect(components?.machine_id).toMatch(/^[0-9a-f]{64}$/);
    expect(components?.cpu).toMatch(/^[0-9a-f]{64}$/);
  });
});

/** A desktop as main wires its checks, on a machine with these raw parts. */
async function desktopOn(s: TestServer, base: string, licenseKey: string, raw: typeof RAW) {
  const dir = await mkdtemp(join(tmpdir(), 'fingerprint-'));
  const state = createLicenseStateFile(join(dir, 'license-state.json'), base);
  await state.update((current) => ({ ...current, license_key: licenseKey }));
  const components = createFingerprintProvider(sourcesOf(raw));
  const hardwareId = deriveHardwareId(raw.machine_id);
  const checker = createLicenseChecker({
    api: createLicensingApi({ serverUrl: base, apiKey: DESKTOP_API_KEY, timeoutMs: 5000 }),
    state,
    hardwareId: () => hardwareId,
    components,
    trustedKeys: undefined,
    now: () => s.clock.now(),
  });
  return { checker, hardwareId, components: components() };
}

const addresses = new WeakMap<TestServer['app'], string>();
async function listening(s: TestServer): Promise<string> {
  const known = addresses.get(s.app) ?? (await s.listen());
  addresses.set(s.app, known);
  return known;
}

describeOnEveryDatabase(
  'desktop main: fingerprints against the real server',
  (server) => {
    it('a machine whose disk is replaced keeps its seat; a clone of its machine id takes a new one', async () => {
      const s = server();
      const base = await listening(s);
      const owner = await member(s);
      const license = await giveLicense(s, owner, await createPlan(s, { seats: 2, fingerprintThreshold: 3 }));
      const desk = await desktopOn(s, base, license.license_key, RAW);
      const first = expectActivation(
        await activate(s, owner.token, license.license_key, desk.hardwareId, { components: desk.components }),
        201,
      );
      expect(await desk.checker.check()).toMatchObject({ valid: true, status: 'active' });

      // A new disk: the same machine to the server, on the same seat.
      const newDisk = await desktopOn(s, base, license.license_key, {
        ...RAW,
        disk: 'nvme-WD_BLACK_SN850X_2TB_NEW',
      });
      expect(newDisk.hardwareId).toBe(desk.hardwareId);
      expect(await newDisk.checker.check()).toMatchObject({ valid: true, status: 'active' });
      expect(await activeSeats(s, license.id)).toHaveLength(1);

      // A VM cloned from it: same machine id, its own CPU, disk, board and install.
      const clone = await desktopOn(s, base, license.license_key, {
        machine_id: RAW.machine_id,
        cpu: 'x64 QEMU Virtual CPU x4',
        disk: 'virtio-QM00001',
        board: 'QEMU Standard PC',
        os_install: 'linux 1700000000000',
      });
      expect(clone.hardwareId).toBe(desk.hardwareId);
      expect(await clone.checker.check()).toMatchObject({ valid: false, requires_activation: true });
      const second = expectActivation(
        await activate(s, owner.token, license.license_key, clone.hardwareId, {
          components: clone.components,
        }),
        201,
      );
      expect(second.activation.activation_id).not.toBe(first.activation.activation_id);
      expect(await clone.checker.check()).toMatchObject({ valid: true, status: 'active' });
      expect(await activeSeats(s, license.id)).toHaveLength(2);
    });
  },
  licenseSuiteOptions,
);
