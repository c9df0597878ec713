import { build } from 'esbuild';
import type { BrowserContext } from 'playwright-core';
import type { BridgeDispatch } from '../../../src/main/ipc.js';
import { REPO_ROOT } from './build.js';

/** Name of the Playwright binding that stands in for Electron IPC. */
const INVOKE_BINDING = '__desktopBridgeInvoke';

let bundled: Promise<string> | undefined;

/**
 * The real `createBridge` of src/preload, bundled for the page: it builds `window.desktop` on a
 * transport that calls the Playwright binding, as the preload builds it on `ipcRenderer.invoke`.
 */
function bridgeScript(): Promise<string> {
  bundled ??= build({
    stdin: {
      contents: `
        import { createBridge } from './src/preload/create-bridge.ts';
        const invoke = (channel, ...args) => window.${INVOKE_BINDING}(channel, args);
        Object.defineProperty(window, 'desktop', { value: createBridge(invoke), writable: false, configurable: false });
      `,
      resolveDir: REPO_ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
  }).then((result) => result.outputFiles[0]?.text ?? '');
  return bundled;
}

/**
 * Gives every page of the context a `window.desktop` whose calls reach `dispatch()` (main's
 * dispatcher: channel check and zod validation) through Playwright instead of Electron IPC.
 * `dispatch` is read per call, so a test can swap it (e.g. for an offline machine).
 */
export async function installDesktopBridge(
  context: BrowserContext,
  dispatch: () => BridgeDispatch,
): Promise<void> {
  await context.exposeBinding(INVOKE_BINDING, (_source, channel: unknown, args: unknown) =>
    dispatch()(channel, Array.isArray(args) ? args : []),
  );
  await context.addInitScript({ content: await bridgeScript() });
}
