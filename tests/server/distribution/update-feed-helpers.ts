import { mkdir, writeFile } from 'node:fs/promises';
import { type IncomingMessage, request as httpRequest, type RequestOptions } from 'node:http';
import { join } from 'node:path';
import { AppImageUpdater } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';
import { ElectronHttpExecutor } from 'electron-updater/out/electronHttpExecutor.js';

/**
 * electron-updater's own HTTP executor (requests, downloads, the streaming SHA-512 check) with
 * Node's `http.request` in place of Electron's `net.request`: the one call in its download path
 * that needs the Electron runtime.
 */
class NodeNetExecutor extends ElectronHttpExecutor {
  constructor() {
    super(() => undefined);
  }

  override createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void) {
    // A connection per request, as Electron's net module is used here: no keep-alive socket
    // gathers the executor's timeout listeners.
    return httpRequest({ ...options, agent: false }, callback) as unknown as ReturnType<
      ElectronHttpExecutor['createRequest']
    >;
  }
}

/**
 * The updater a Linux build of the app runs (`AppImageUpdater`, through `AppUpdater` and
 * `BaseUpdater`: the version comparison, the generic provider, the download and its SHA-512
 * check), made in Node: `AppUpdater` accepts an app adapter in place of Electron's `app`, and only
 * its HTTP transport needs swapping. Installing is never reached (no quit, no restart).
 */
export async function nodeUpdater(options: {
  dir: string;
  version: string;
  feedUrl: string;
  channel?: 'beta';
  allowDowngrade?: boolean;
}): Promise<AppImageUpdater> {
  await mkdir(options.dir, { recursive: true });
  const appUpdateConfigPath = join(options.dir, 'app-update.yml');
  // What electron-builder writes into a build: the cache folder name is read from it.
  await writeFile(
    appUpdateConfigPath,
    'provider: generic\nurl: unused\nupdaterCacheDirName: assistant-updater\n',
  );
  const adapter: AppAdapter = {
    version: options.version,
    name: 'Desktop AI Assistant',
    isPackaged: true,
    appUpdateConfigPath,
    userDataPath: options.dir,
    baseCachePath: join(options.dir, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => undefined,
    quit: () => undefined,
    onQuit: () => undefined,
  };
  const updater = new AppImageUpdater(undefined, adapter);
  // Not part of its typings: the executor is made from Electron's session unless an adapter is given.
  Object.assign(updater, { httpExecutor: new NodeNetExecutor() });
  updater.logger = null;
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = false;
  // The differential download reads the running AppImage; the test has none, so the full file.
  updater.disableDifferentialDownload = true;
  if (options.channel) updater.channel = options.channel;
  // Setting a channel allows downgrades (electron-updater's rule); say what the app would.
  updater.allowDowngrade = options.allowDowngrade ?? false;
  updater.setFeedURL({ provider: 'generic', url: options.feedUrl });
  return updater;
}
