import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { arch, cpus, platform } from 'node:os';
import { join } from 'node:path';
import nodeMachineId from 'node-machine-id';
import {
  FINGERPRINT_COMPONENTS,
  type FingerprintComponent,
  type FingerprintComponents,
} from '../shared/fingerprint.js';

/**
 * Salt of the hardware id: the raw OS machine id never leaves the machine, and the id this product
 * sends cannot be matched with the one another product derives from the same machine.
 */
export const HARDWARE_ID_SALT = 'desktop-ai-assistant-portal/hardware-id/v1';

/** The OS's own machine id (Windows MachineGuid, macOS IOPlatformUUID, Linux /etc/machine-id). */
export type MachineIdSource = () => string;

// `true`: the raw id; node-machine-id's own hash is unsalted, so it is hashed here instead.
const osMachineId: MachineIdSource = () => nodeMachineId.machineIdSync(true);

/** SHA-256 of the salt and the raw machine id, in hex (64 characters: a valid `hardware_id`). */
export function deriveHardwareId(rawMachineId: string, salt = HARDWARE_ID_SALT): string {
  const raw = rawMachineId.trim();
  if (!raw) throw new Error('The operating system reported an empty machine id');
  return createHash('sha256').update(`${salt}\0${raw}`).digest('hex');
}

/** This machine's hardware id, read once (the OS call runs a process on some platforms). */
export function createHardwareIdProvider(source: MachineIdSource = osMachineId): () => string {
  let cached: string | undefined;
  return () => {
    cached ??= deriveHardwareId(source());
    return cached;
  };
}

/**
 * Salt of the fingerprint components, per product: a serial number never leaves the machine, and
 * this product's hashes cannot be matched with another product's of the same parts.
 */
export const FINGERPRINT_SALT = 'desktop-ai-assistant-portal/fingerprint/v1';

/** The raw parts of this machine's fingerprint, each read once; a part the OS does not tell is left out. */
export type ComponentSources = Partial<Record<FingerprintComponent, () => string | undefined>>;

/** SHA-256 of the salt, the component's name and its raw value, in hex. */
export const hashComponent = (name: FingerprintComponent, raw: string, salt = FINGERPRINT_SALT): string =>
  createHash('sha256').update(`${salt}\0${name}\0${raw.trim()}`).digest('hex');

const readText = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
};

/** The first whole disk's id (its model and serial, as udev names it) on Linux. */
function linuxDisk(): string | undefined {
  try {
    const disks = readdirSync('/dev/disk/by-id')
      .filter((name) => !name.includes('-part') && !name.startsWith('wwn-') && !name.startsWith('dm-'))
      .sort();
    return disks[0];
  } catch {
    return undefined;
  }
}

/** When the OS was installed, as the birth time of a file its installer writes once. */
function osInstall(): string | undefined {
  const candidates =
    platform() === 'darwin'
      ? ['/var/db/.AppleSetupDone']
      : platform() === 'win32'
        ? [join(process.env.SystemRoot ?? 'C:\\Windows', 'System32', 'config', 'SYSTEM')]
        : ['/etc/hostname', '/etc/machine-id', '/'];
  for (const path of candidates) {
    try {
      const born = statSync(path).birthtimeMs;
      if (born > 0) return `${platform()} ${Math.floor(born)}`;
    } catch {
      // The next candidate.
    }
  }
  return undefined;
}

/** What this OS tells without privileges; the rest is left out (the server counts what both sides have). */
export const osComponentSources = (machineId: MachineIdSource = osMachineId): ComponentSources => ({
  machine_id: machineId,
  cpu: () => {
    const cores = cpus();
    return cores.length > 0 ? `${arch()} ${cores[0]?.model ?? ''} x${cores.length}` : undefined;
  },
  disk: () => (platform() === 'linux' ? linuxDisk() : undefined),
  board: () =>
    platform() === 'linux'
      ? [readText('/sys/class/dmi/id/board_vendor'), readText('/sys/class/dmi/id/board_name')]
          .filter(Boolean)
          .join(' ') || undefined
      : undefined,
  os_install: osInstall,
});

/**
 * This machine's fingerprint components, hashed here (salted per product) and read once; a part
 * that cannot be read is left out, and none at all when even the machine id cannot.
 */
export function createFingerprintProvider(
  sources: ComponentSources = osComponentSources(),
): () => FingerprintComponents | undefined {
  let cached: FingerprintComponents | undefined | null = null;
  return () => {
    if (cached !== null) return cached;
    const components: FingerprintComponents = {};
    for (const name of FINGERPRINT_COMPONENTS) {
      let raw: string | undefined;
      try {
        raw = sources[name]?.()?.trim();
      } catch {
        raw = undefined;
      }
      if (raw) components[name] = hashComponent(name, raw);
    }
    cached = components.machine_id ? components : undefined;
    return cached;
  };
}
