import { join } from 'node:path';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  net,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
} from 'electron';
import electronUpdater from 'electron-updater';
import { bridgeChannels, bridgeEvents } from '../shared/bridge.js';
import { APP_ENTRY_URL, APP_SCHEME, createAppUrlCheck } from './app-origin.js';
import { createAppProtocolHandler } from './app-protocol.js';
import { DesktopConfigError, loadDesktopConfig, PRODUCT_NAME } from './desktop-config.js';
import type { FloatingSeat } from './floating-seat.js';
import { createHandlers } from './handlers.js';
import { createFingerprintProvider, createHardwareIdProvider, osComponentSources } from './hardware-id.js';
import { createBridgeDispatcher, createSenderCheck, registerBridgeIpc } from './ipc.js';
import { openSecretStore } from './keychain.js';
import { createLicenseStateFile } from './license-state.js';
import { startPeriodicLicenseCheck } from './periodic-license-check.js';
import { denyAllPermissions, hardenWebContents } from './security.js';
import { createUpdateCheckApi } from './updater-api.js';
import { createUpdateService } from './updater-service.js';
import { createUpdateSettingsFile } from './updater-settings.js';
import { createSignIns } from './sign-ins.js';
import { createDesktopSso } from './sso-sign-in.js';
import { MIN_WINDOW_SIZE, readWindowState, restoreWindowState, writeWindowState } from './window-state.js';

// Wiring only: every decision lives in a module that tests run without Electron.
const log = (message: string) => console.info(`[desktop] ${message}`);

// Before `ready`: app:// behaves like https (standard URLs, secure context, fetch and CORS).
protocol.registerSchemesAsPrivileged([
  {
    scheme: APP_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, stream: true },
  },
]);

// Baked in by electron-vite at build time (`MAIN_VITE_*` variables of `npm run dist`).
const buildEnv = (import.meta as { env?: Record<string, string | undefined> }).env;
const builtInServerUrl = buildEnv?.['MAIN_VITE_SERVER_URL'];
const builtInLeasePublicKeys = buildEnv?.['MAIN_VITE_LEASE_PUBLIC_KEYS'];

function readConfig() {
  try {
    return loadDesktopConfig(process.env, {
      packaged: app.isPackaged,
      builtInServerUrl,
      builtInLeasePublicKeys,
      log,
    });
  } catch (error) {
    if (error instanceof DesktopConfigError) dialog.showErrorBox(PRODUCT_NAME, error.message);
    throw error;
  }
}

async function createMainWindow(entryUrl: string): Promise<BrowserWindow> {
  const statePath = join(app.getPath('userData'), 'window-state.json');
  const workAreas = screen.getAllDisplays().map((display) => display.workArea);
  const restored = restoreWindowState(await readWindowState(statePath).catch(() => undefined), workAreas);
  const window = new BrowserWindow({
    ...restored,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    title: PRODUCT_NAME,
    show: false,
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  if (restored.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  window.on('close', () => {
    void writeWindowState(statePath, window.getNormalBounds(), window.isMaximized()).catch((error: unknown) =>
      log(`Could not save the window state: ${(error as Error).message}`),
    );
  });
  await window.loadURL(entryUrl);
  return window;
}

async function start(): Promise<void> {
  const config = readConfig();
  const isAppUrl = createAppUrlCheck(config.devServerUrl);
  const entryUrl = config.devServerUrl ?? APP_ENTRY_URL;
  log(`Server: ${config.serverUrl}`);
  if (config.leasePublicKeys)
    log(`Lease keys pinned: ${config.leasePublicKeys.keys.map((key) => key.kid).join(', ')}`);

  app.on('web-contents-created', (_event, contents) =>
    hardenWebContents(contents, {
      isAppUrl,
      externalHosts: config.externalHosts,
      openExternal: (url) => shell.openExternal(url),
      log,
    }),
  );
  denyAllPermissions(session.defaultSession);

  const userData = app.getPath('userData');
  const secrets = await openSecretStore({
    service: PRODUCT_NAME,
    safeStorage,
    fallbackFile: join(userData, 'refresh-token.json'),
    log,
  });
  // The app:// forwarding keeps the refresh token in `secrets`; the renderer never sees it. It
  // also tells of sign-ins, on which a machine trial kept here becomes the account's trial.
  const signIns = createSignIns(log);
  // Single sign-on goes through the system browser and comes back to a loopback listener; the
  // sign-in page then completes it here, as a password's (sso-sign-in.ts).
  const sso = createDesktopSso({
    serverUrl: config.serverUrl,
    apiKey: config.apiKey,
    fetch: (input, init) => net.fetch(input, init),
    timeoutMs: config.requestTimeoutMs,
    openExternal: (url) => shell.openExternal(url),
    returned: (fragment) => {
      const [window] = BrowserWindow.getAllWindows();
      if (!window) return;
      if (window.isMinimized()) window.restore();
      window.focus();
      void window.loadURL(`${new URL('/login', entryUrl).href}#${fragment}`);
    },
    log,
  });
  protocol.handle(
    APP_SCHEME,
    createAppProtocolHandler({
      rendererDir: join(import.meta.dirname, '../renderer'),
      serverUrl: config.serverUrl,
      apiKey: config.apiKey,
      secrets,
      signIns,
      ssoVerifier: () => sso.takeVerifier(),
      fetch: (input, init) => net.fetch(input, init),
    }),
  );
  const licenseStatePath = join(userData, 'license-state.json');
  const licenseState = createLicenseStateFile(licenseStatePath, config.serverUrl);
  // electron-updater's updater for this system (NSIS, DMG, AppImage, deb), made once the app is ready.
  const { autoUpdater } = electronUpdater;
  autoUpdater.logger = { info: log, warn: log, error: log };
  const updates = createUpdateService({
    updater: autoUpdater,
    api: createUpdateCheckApi({
      serverUrl: config.serverUrl,
      apiKey: config.apiKey,
      fetch: (input, init) => net.fetch(input, init),
      timeoutMs: config.requestTimeoutMs,
    }),
    settings: createUpdateSettingsFile(join(userData, 'update-settings.json')),
    licenseKey: async () => (await licenseState.read()).license_key,
    hardwareId: createHardwareIdProvider(),
    components: createFingerprintProvider(osComponentSources()),
    app: { version: app.getVersion(), platform: process.platform },
    log,
  });
  // Every change reaches the app's own windows; main checked it against the contract.
  updates.onChange((state) => {
    for (const window of BrowserWindow.getAllWindows())
      if (isAppUrl(window.webContents.getURL()))
        window.webContents.send(bridgeEvents.updateStateChanged, state);
  });
  let floatingSeat: FloatingSeat | undefined;
  const handlers = createHandlers({
    secrets,
    serverUrl: config.serverUrl,
    apiKey: config.apiKey,
    fetch: (input, init) => net.fetch(input, init),
    requestTimeoutMs: config.requestTimeoutMs,
    licenseStatePath,
    leasePublicKeys: config.leasePublicKeys,
    app: { version: app.getVersion(), platform: process.platform },
    updates,
    signIns,
    sso,
    onFloatingSeat: (seat) => {
      floatingSeat = seat;
    },
    log,
  });
  registerBridgeIpc({
    ipcMain,
    dispatch: createBridgeDispatcher(handlers),
    isTrustedSender: createSenderCheck(isAppUrl),
    log,
  });
  const periodic = startPeriodicLicenseCheck({
    check: () => handlers[bridgeChannels.checkLicenseStatus](),
    intervalMs: config.licenseCheckIntervalMs,
    log,
  });
  updates.start();
  // A floating license's seat is checked out now and held by heartbeats while the app runs.
  void floatingSeat?.start().catch((error: unknown) => log(`Floating seat: ${String(error)}`));
  let seatGivenBack = false;
  app.on('before-quit', (event) => {
    periodic.stop();
    void sso.close();
    updates.stop();
    // The seat goes back before the app ends (a few seconds at most), so another machine may take it.
    if (floatingSeat && !seatGivenBack) {
      event.preventDefault();
      seatGivenBack = true;
      const done = () => app.quit();
      void Promise.race([
        floatingSeat.quit(),
        new Promise((resolve) => setTimeout(resolve, config.requestTimeoutMs)),
      ]).finally(done);
    }
  });

  await createMainWindow(entryUrl);
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) void createMainWindow(entryUrl);
  });
}

// One instance: a second launch focuses the first window instead of opening another.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const [window] = BrowserWindow.getAllWindows();
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      console.error('[desktop] could not start:', error);
      app.exit(1);
    });
}
