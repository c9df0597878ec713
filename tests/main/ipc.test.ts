import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type BridgeInvoke,
  type BridgeListen,
  bridgeChannels,
  bridgeEvents,
  type UpdateState,
} from '../../src/shared/bridge.js';
import { updateNotes, type UpdateService } from '../../src/main/updater-service.js';
import { APP_ENTRY_URL, createAppUrlCheck } from '../../src/main/app-origin.js';
import { createHandlers } from '../../src/main/handlers.js';
import type { BridgeHandlers } from '../../src/main/handlers.js';
import {
  createBridgeDispatcher,
  createSenderCheck,
  type FrameLike,
  type IpcInvokeEventLike,
  type IpcMainLike,
  registerBridgeIpc,
} from '../../src/main/ipc.js';
import { createMemorySecretStore, type SecretStore } from '../../src/main/secret-store.js';
import { createBridge } from '../../src/preload/create-bridge.js';
import { FakeAppUpdater, updateInfo, updateServiceForTests } from './support/fake-app-updater.js';
import { refusedUrl } from './support/licensing-server.js';

type Listener = (event: IpcInvokeEventLike, ...args: unknown[]) => unknown;

/** A fake of Electron's ipcMain (Electron cannot run here): records handlers, lets the test invoke them. */
class FakeIpcMain implements IpcMainLike {
  readonly listeners = new Map<string, Listener>();
  handle(channel: string, listener: Listener) {
    if (this.listeners.has(channel)) throw new Error(`second handler for ${channel}`);
    this.listeners.set(channel, listener);
  }
  removeHandler(channel: string) {
    this.listeners.delete(channel);
  }
  /** What Electron does for `ipcRenderer.invoke`: no handler → rejected. */
  async invoke(event: IpcInvokeEventLike, channel: string, ...args: unknown[]) {
    const listener = this.listeners.get(channel);
    if (!listener) throw new Error(`No handler registered for '${channel}'`);
    return listener(event, ...args);
  }
}

/** Fake IPC events: a window whose top frame shows `topUrl`, sent from its top frame or an iframe. */
function fakeWindow(topUrl: string) {
  const mainFrame: FrameLike = { url: topUrl, processId: 4, routingId: 1 };
  return {
    fromTopFrame: (): IpcInvokeEventLike => ({ senderFrame: mainFrame, sender: { mainFrame } }),
    // Electron may wrap the same frame in a new object: the ids still say it is the top frame.
    fromTopFrameCopy: (): IpcInvokeEventLike => ({ senderFrame: { ...mainFrame }, sender: { mainFrame } }),
    fromIframe: (url = topUrl): IpcInvokeEventLike => ({
      senderFrame: { url, processId: 4, routingId: 7 },
      sender: { mainFrame },
    }),
    fromGoneFrame: (): IpcInvokeEventLike => ({ senderFrame: null, sender: { mainFrame } }),
  };
}

describe('bridge IPC: one registration wrapper in front of createHandlers', () => {
  let dir: string;
  let secrets: SecretStore;
  let handlers: BridgeHandlers;
  let ipcMain: FakeIpcMain;
  let statePath: string;
  let updater: FakeAppUpdater;
  let updates: UpdateService;
  /** The server URL: the keychain account of the refresh token. */
  let serverUrl: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'desktop-ipc-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  beforeEach(async () => {
    secrets = createMemorySecretStore();
    statePath = join(dir, `state-${Math.random().toString(36).slice(2)}.json`);
    serverUrl = await refusedUrl();
    updater = new FakeAppUpdater();
    updates = updateServiceForTests({
      serverUrl,
      licenseStatePath: statePath,
      settingsPath: join(dir, `updates-${Math.random().toString(36).slice(2)}.json`),
      updater,
    }).service;
    handlers = createHandlers({
      secrets,
      serverUrl,
      apiKey: 'dap-desktop-public',
      requestTimeoutMs: 2000,
      licenseStatePath: statePath,
      leasePublicKeys: undefined,
      app: { version: '1.2.3', platform: 'linux' },
      updates,
    });
    ipcMain = new FakeIpcMain();
    registerBridgeIpc({
      ipcMain,
      dispatch: createBridgeDispatcher(handlers),
      isTrustedSender: createSenderCheck(createAppUrlCheck()),
    });
  });

  it('registers exactly the contract’s channels; an unknown channel has no handler and is refused', async () => {
    expect([...ipcMain.listeners.keys()].sort()).toEqual(Object.values(bridgeChannels).sort());
    const app = fakeWindow(APP_ENTRY_URL);
    await expect(ipcMain.invoke(app.fromTopFrame(), 'desktop:shell:exec', 'rm -rf /')).rejects.toThrow(
      "No handler registered for 'desktop:shell:exec'",
    );
  });

  it('the dispatcher itself refuses unknown channels (also ones that only look like bridge channels)', async () => {
    const dispatch = createBridgeDispatcher(handlers);
    for (const channel of ['desktop:shell:exec', 'hardware-id:get', '', 42, 'desktop:hardware-id:get '])
      await expect(dispatch(channel, [])).rejects.toMatchObject({ code: 'unknown_channel' });
  });

  it('a handler table that does not match the contract is refused at start-up', () => {
    const { [bridgeChannels.getAppInfo]: _dropped, ...missing } = handlers;
    expect(() => createBridgeDispatcher(missing as BridgeHandlers)).toThrow(/missing: desktop:app-info:get/);
    const extra = { ...handlers, 'desktop:shell:exec': async () => undefined } as BridgeHandlers;
    expect(() => createBridgeDispatcher(extra)).toThrow(/unknown: desktop:shell:exec/);
  });

  it('answers the app’s own top-level frame (also when Electron hands over a second wrapper of it)', async () => {
    const app = fakeWindow(`${APP_ENTRY_URL}licenses/42?tab=machines`);
    await secrets.set(serverUrl, 'token-kept-by-main');
    expect(await ipcMain.invoke(app.fromTopFrame(), bridgeChannels.hasSession)).toBe(true);
    await ipcMain.invoke(app.fromTopFrameCopy(), bridgeChannels.forgetSession);
    expect(await secrets.get(serverUrl)).toBeNull();
  });

  it.each([
    { sender: 'an iframe inside the app window', event: () => fakeWindow(APP_ENTRY_URL).fromIframe() },
    {
      sender: 'an iframe of another site',
      event: () => fakeWindow(APP_ENTRY_URL).fromIframe('https://ads.example.com/frame'),
    },
    {
      sender: 'a top frame navigated to another site',
      event: () => fakeWindow('https://evil.example.com/').fromTopFrame(),
    },
    { sender: 'a look-alike host', event: () => fakeWindow('app://portal.evil.example/').fromTopFrame() },
    {
      sender: 'credentials in the URL',
      event: () => fakeWindow('app://portal@evil.example/').fromTopFrame(),
    },
    { sender: 'a file:// page', event: () => fakeWindow('file:///tmp/page.html').fromTopFrame() },
    { sender: 'http on the app host name', event: () => fakeWindow('http://portal/').fromTopFrame() },
    { sender: 'a frame that is gone', event: () => fakeWindow(APP_ENTRY_URL).fromGoneFrame() },
  ])('refuses $sender, and the handler never runs', async ({ event }) => {
    await secrets.set(serverUrl, 'token-kept-by-main');
    await expect(ipcMain.invoke(event(), bridgeChannels.forgetSession)).rejects.toMatchObject({
      code: 'untrusted_sender',
    });
    await expect(ipcMain.invoke(event(), bridgeChannels.setLicenseKey, 'KEY')).rejects.toMatchObject({
      code: 'untrusted_sender',
    });
    expect(await secrets.get(serverUrl)).toBe('token-kept-by-main');
    await expect(readFile(statePath)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('the dev server is trusted only when it is the configured one', () => {
    const devCheck = createSenderCheck(createAppUrlCheck('http://localhost:5173'));
    const dev = fakeWindow('http://localhost:5173/licenses');
    expect(devCheck(dev.fromTopFrame())).toBe(true);
    expect(devCheck(fakeWindow('http://localhost:5174/').fromTopFrame())).toBe(false);
    expect(createSenderCheck(createAppUrlCheck())(dev.fromTopFrame())).toBe(false);
  });

  it.each([
    { channel: bridgeChannels.hasSession, args: ['a-refresh-token'], bad: 'a token where none is taken' },
    {
      channel: bridgeChannels.forgetSession,
      args: [{ account: 'x' }],
      bad: 'an argument where none is taken',
    },
    { channel: bridgeChannels.setLicenseKey, args: [12345], bad: 'a number for a key' },
    { channel: bridgeChannels.setLicenseKey, args: [], bad: 'no key (null is the way to forget it)' },
    { channel: bridgeChannels.getHardwareId, args: ['unexpected'], bad: 'an argument where none is taken' },
    { channel: bridgeChannels.checkLicenseStatus, args: [{ accessToken: 'x' }], bad: 'the dropped options' },
  ])('$channel with $bad → invalid_arguments, nothing written', async ({ channel, args }) => {
    const app = fakeWindow(APP_ENTRY_URL);
    await secrets.set(serverUrl, 'token-kept-by-main');
    await expect(ipcMain.invoke(app.fromTopFrame(), channel, ...args)).rejects.toMatchObject({
      code: 'invalid_arguments',
      message: expect.stringContaining(`Invalid arguments for ${channel}`),
    });
    expect(await secrets.get(serverUrl)).toBe('token-kept-by-main');
    await expect(readFile(statePath)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a result that breaks the contract is not handed to the renderer', async () => {
    const broken = { ...handlers, [bridgeChannels.getHardwareId]: async () => 'raw id with spaces' };
    await expect(createBridgeDispatcher(broken)(bridgeChannels.getHardwareId, [])).rejects.toMatchObject({
      code: 'invalid_result',
    });
  });

  it('the removal function unregisters every channel', () => {
    const other = new FakeIpcMain();
    const unregister = registerBridgeIpc({
      ipcMain: other,
      dispatch: createBridgeDispatcher(handlers),
      isTrustedSender: () => true,
    });
    expect(other.listeners.size).toBe(Object.keys(bridgeChannels).length);
    unregister();
    expect(other.listeners.size).toBe(0);
  });

  describe('createBridge(invoke, listen): window.desktop as the preload builds it', () => {
    /** The preload's transport, here straight into the fake ipcMain as the app's top frame. */
    const invokeAsApp: BridgeInvoke = (channel, ...args) =>
      ipcMain.invoke(fakeWindow(APP_ENTRY_URL).fromTopFrame(), channel, ...args) as never;
    /** The preload's `ipcRenderer.on`, here a list the test sends main's messages through. */
    const sent = new Map<string, ((payload: unknown) => void)[]>();
    const listen: BridgeListen = (event, listener) => {
      sent.set(event, [...(sent.get(event) ?? []), listener]);
      return () =>
        sent.set(
          event,
          (sent.get(event) ?? []).filter((other) => other !== listener),
        );
    };

    it('has exactly the DesktopBridge methods, frozen, and no generic invoke', () => {
      const bridge = createBridge(invokeAsApp, listen);
      expect(Object.keys(bridge).sort()).toEqual(
        [
          'checkLicenseStatus',
          'forgetSession',
          'getAppInfo',
          'getHardwareId',
          'getLicenseKey',
          'hasSession',
          'setLicenseKey',
          'getUpdateState',
          'onUpdateStateChange',
          'checkForUpdates',
          'installUpdate',
          'getUpdateChannel',
          'setUpdateChannel',
          'writeOfflineActivationRequest',
          'importOfflineLicenseFile',
          'signOutOfflineLicense',
          'getMachineTrial',
          'startMachineTrial',
          'usage',
          'floating',
          'sso',
        ].sort(),
      );
      expect(Object.keys(bridge.usage ?? {}).sort()).toEqual(['left', 'report']);
      expect(Object.keys(bridge.floating ?? {}).sort()).toEqual(['borrow', 'returnBorrowed', 'state']);
      expect(Object.isFrozen(bridge.floating)).toBe(true);
      expect(Object.isFrozen(bridge)).toBe(true);
      expect(Object.isFrozen(bridge.usage)).toBe(true);
      expect(Object.keys(bridge.sso ?? {})).toEqual(['start']);
      expect(Object.isFrozen(bridge.sso)).toBe(true);
      expect(() => {
        (bridge as unknown as Record<string, unknown>)['getHardwareId'] = () => 'swapped';
      }).toThrow();
    });

    it('round-trips every method through the wrapper to the real handlers', async () => {
      const bridge = createBridge(invokeAsApp, listen);
      expect(await bridge.getHardwareId()).toMatch(/^[0-9a-f]{64}$/);
      expect(await bridge.hasSession()).toBe(false);
      await secrets.set(serverUrl, 'token-kept-by-main');
      expect(await bridge.hasSession()).toBe(true);
      await bridge.forgetSession();
      expect(await bridge.hasSession()).toBe(false);
      expect(await bridge.checkLicenseStatus()).toMatchObject({ status: 'not_configured' });
      await bridge.setLicenseKey('ABCDE-FGHJK-MNPQR-STVWX-YZ234');
      expect(await bridge.getLicenseKey()).toBe('ABCDE-FGHJK-MNPQR-STVWX-YZ234');
      // The server is unreachable and there is no lease yet: an error answer, not a crash.
      expect(await bridge.checkLicenseStatus()).toMatchObject({ valid: false, status: 'error' });
      await bridge.setLicenseKey(null);
      // No machine trial here, and none to start while the server cannot be reached.
      expect(await bridge.getMachineTrial()).toBeNull();
      expect(await bridge.startMachineTrial()).toMatchObject({ started: false, trial: null });
      expect(await bridge.startMachineTrial('pro-monthly')).toMatchObject({ started: false });
      expect(await bridge.getAppInfo()).toMatchObject({
        version: '1.2.3',
        platform: 'linux',
        tokenStorage: 'memory',
      });
    });

    it('a bad argument from the page is refused by main, with the reason', async () => {
      const bridge = createBridge(invokeAsApp, listen);
      await expect(bridge.setLicenseKey('')).rejects.toThrow(/Invalid arguments for desktop:license-key:set/);
      await expect(bridge.startMachineTrial(' ')).rejects.toThrow(
        /Invalid arguments for desktop:machine-trial:start/,
      );
      await expect(bridge.setUpdateChannel('nightly' as never)).rejects.toThrow(
        /Invalid arguments for desktop:updates:channel:set/,
      );
      const app = fakeWindow(APP_ENTRY_URL).fromTopFrame();
      await expect(ipcMain.invoke(app, bridgeChannels.installUpdate, true)).rejects.toThrow(
        /Invalid arguments for desktop:updates:install/,
      );
      await expect(ipcMain.invoke(app, bridgeChannels.setUpdateChannel)).rejects.toThrow(/Invalid arguments/);
      await expect(
        ipcMain.invoke(fakeWindow('https://evil.example/').fromTopFrame(), bridgeChannels.installUpdate),
      ).rejects.toThrow(/only answered to the app's own window/);
      expect(updater.installs).toEqual([]);
    });

    it('the update channels: state, channel kept by main, check, restart only with a downloaded update, and changes pushed to the page', async () => {
      // What index.ts does with every change: send it to the app's window, where the preload listens.
      updates.onChange((state) => {
        for (const listener of sent.get(bridgeEvents.updateStateChanged) ?? []) listener(state);
      });
      const bridge = createBridge(invokeAsApp, listen);
      const seen: UpdateState[] = [];
      const stop = bridge.onUpdateStateChange((state) => seen.push(state));

      expect(await bridge.getUpdateState()).toEqual({ status: 'idle', checked_at: null });
      expect(await bridge.getUpdateChannel()).toBe('stable');
      // No license key on this machine yet: nothing to ask the server, said quietly.
      expect(await bridge.checkForUpdates()).toEqual({
        status: 'idle',
        checked_at: null,
        note: updateNotes.noLicense,
      });
      expect(await bridge.installUpdate()).toBe(false);
      expect(await bridge.setUpdateChannel('beta')).toBe('beta');
      expect(await bridge.getUpdateChannel()).toBe('beta');
      expect(seen.map((state) => state.status)).toContain('checking');

      // A key, but the server cannot be reached: an error the page can show.
      await bridge.setLicenseKey('ABCDE-FGHJK-MNPQR-STVWX-YZ234');
      expect(await bridge.checkForUpdates()).toMatchObject({
        status: 'error',
        message: expect.stringMatching(
          /^Could not check for updates: the update server could not be reached/,
        ),
      });
      expect(seen.at(-1)).toMatchObject({ status: 'error' });

      // electron-updater reports a downloaded update (driven here by the fake): restart installs it.
      updater.emit('update-downloaded', { ...updateInfo('1.3.0', 'Notes'), downloadedFile: '/tmp/x' });
      expect(await bridge.getUpdateState()).toEqual({
        status: 'downloaded',
        version: '1.3.0',
        release_notes: 'Notes',
      });
      expect(await bridge.installUpdate()).toBe(true);
      expect(updater.installs).toEqual([{ isSilent: false, isForceRunAfter: true }]);
      stop();
      updater.emit('checking-for-update');
      expect(seen.at(-1)).toMatchObject({ status: 'downloaded' });
    });

    it('only ever sends the contract’s channels to the transport', async () => {
      const sent: string[] = [];
      const recordingInvoke: BridgeInvoke = async (channel, ..._args) => {
        sent.push(channel);
        return undefined as never;
      };
      const bridge = createBridge(recordingInvoke, listen);
      const { onUpdateStateChange, usage, floating, sso, ...calls } = bridge;
      expect(typeof onUpdateStateChange).toBe('function');
      for (const method of [
        ...Object.values(calls),
        ...Object.values(usage ?? {}),
        ...Object.values(floating ?? {}),
        ...Object.values(sso ?? {}),
      ] as (() => Promise<unknown>)[])
        await method().catch(() => undefined);
      expect(sent.sort()).toEqual(Object.values(bridgeChannels).sort());
    });
  });
});
