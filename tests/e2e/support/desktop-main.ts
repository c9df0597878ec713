import { join } from 'node:path';
import { DESKTOP_API_KEY } from '../../../src/main/desktop-config.js';
import { createHandlers, type HandlerDeps } from '../../../src/main/handlers.js';
import { type BridgeDispatch, createBridgeDispatcher } from '../../../src/main/ipc.js';
import type { SecretStore } from '../../../src/main/secret-store.js';
import { leaseSigningKeysSchema } from '../../../src/shared/api/licenses.js';
import { updateServiceForTests } from '../../main/support/fake-app-updater.js';
import type { PortalServer } from './server.js';

/**
 * Main's bridge as the desktop app builds it, on the e2e server: its real handlers with a fixed OS
 * machine id, the server's lease keys pinned as a build pins them, the machine's clock the
 * server's (so days moved pass for both), its license state and update settings in `dir`.
 */
export async function desktopMainFor(
  server: PortalServer,
  options: {
    dir: string;
    secrets: SecretStore;
    machineId: string;
    signIns?: HandlerDeps['signIns'];
    /** How main reaches the server (one that cannot is a machine offline); the real fetch by default. */
    fetch?: HandlerDeps['fetch'];
  },
): Promise<BridgeDispatch> {
  const served = await server.app.inject({
    url: '/api/v1/licensing/public-key',
    headers: { 'x-api-key': DESKTOP_API_KEY },
  });
  const statePath = join(options.dir, 'license-state.json');
  return createBridgeDispatcher(
    createHandlers({
      secrets: options.secrets,
      machineId: () => options.machineId,
      serverUrl: server.baseUrl,
      apiKey: DESKTOP_API_KEY,
      requestTimeoutMs: 5000,
      licenseStatePath: statePath,
      leasePublicKeys: leaseSigningKeysSchema.parse(served.json()),
      now: () => server.clock.now(),
      app: { version: '1.4.2', platform: 'linux' },
      updates: updateServiceForTests({
        serverUrl: server.baseUrl,
        licenseStatePath: statePath,
        settingsPath: join(options.dir, 'update-settings.json'),
      }).service,
      ...(options.signIns ? { signIns: options.signIns } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }),
  );
}
