import { createHash } from 'node:crypto';
import nodeMachineId from 'node-machine-id';

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
