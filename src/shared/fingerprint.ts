import { z } from 'zod';

/**
 * The parts of a machine's fingerprint the desktop app sends beside its hardware id, each hashed
 * in the app (salted per product), so the server never sees a serial number. Enough of them
 * matching makes a machine known again after a disk is replaced or the OS reinstalled; the same
 * machine id with other parts (a cloned VM) is another machine.
 */
export const FINGERPRINT_COMPONENTS = ['machine_id', 'cpu', 'disk', 'board', 'os_install'] as const;
export type FingerprintComponent = (typeof FINGERPRINT_COMPONENTS)[number];

/** A hashed component: 64 hex digits of SHA-256. */
const componentHash = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'A fingerprint component is a SHA-256 hash: 64 lower-case hex digits');

export const fingerprintComponentsSchema = z
  .strictObject({
    machine_id: componentHash.optional(),
    cpu: componentHash.optional(),
    disk: componentHash.optional(),
    board: componentHash.optional(),
    os_install: componentHash.optional(),
  })
  .refine((components) => components.machine_id !== undefined, {
    message: 'The fingerprint components include the machine id',
    path: ['machine_id'],
  })
  .describe(
    'Hashed parts of the machine’s fingerprint (SHA-256, salted per product in the app); older apps send none',
  )
  .meta({ id: 'FingerprintComponents' });
export type FingerprintComponents = z.infer<typeof fingerprintComponentsSchema>;
