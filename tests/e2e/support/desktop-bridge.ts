import { build } from 'esbuild';
import type { BrowserContext } from 'playwright-core';
import { APP_ORIGIN } from '../../../src/main/app-origin.js';
import type { BridgeDispatch } from '../../../src/main/ipc.js';
import type { BridgeEvent } from '../../../src/shared/bridge.js';
import { REPO_ROOT } from './build.js';

/** Name of the Playwright binding that stands in for Electron IPC. */
const INVOKE_BINDING = '__desktopBridgeInvoke';

/** Name of the page function that stands in for main's `webContents.send`. */
const SEND_FUNCTION = '__desktopBridgeSend';

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
        // ipcRenderer.on's part: listeners per event, reached by sendToDesktopPages as webContents.send.
        const listeners = new Map();
        const listen = (event, listener) => {
          const set = listeners.get(event) ?? new Set();
          set.add(listener);
          listeners.set(event, set);
          return () => set.delete(listener);
        };
        Object.defineProperty(window, '${SEND_FUNCTION}', {
          value: (event, payload) => listeners.get(event)?.forEach((listener) => listener(payload)),
        });
        Object.defineProperty(window, 'desktop', { value: createBridge(invoke, listen), writable: false, configurable: false });
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

/** What main's `webContents.send(event, payload)` does, to every page of the context. */
export async function sendToDesktopPages(
  context: BrowserContext,
  event: BridgeEvent,
  payload: unknown,
): Promise<void> {
  const script = `window.${SEND_FUNCTION}(${JSON.stringify(event)}, ${JSON.stringify(payload)})`;
  await Promise.all(context.pages().map((page) => page.evaluate(script)));
}

/** An API answer as the page received it. */
export interface PageAnswer {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends the page's /api/* calls through `handle` (main's real app:// handler, whose forwarding
 * keeps the refresh token in main) instead of straight to the server, as the desktop renderer's
 * calls go. Returns every answer the page received, in order.
 */
export async function routeApiThroughAppProtocol(
  context: BrowserContext,
  handle: (request: Request) => Promise<Response>,
): Promise<PageAnswer[]> {
  const answers: PageAnswer[] = [];
  await context.route(
    (url) => url.pathname.startsWith('/api/'),
    async (route) => {
      const request = route.request();
      const url = new URL(request.url());
      const headers = Object.fromEntries(
        Object.entries(await request.allHeaders()).filter(([name]) => !name.startsWith(':')),
      );
      const body = request.postDataBuffer();
      const answer = await handle(
        new Request(`${APP_ORIGIN}${url.pathname}${url.search}`, {
          method: request.method(),
          headers,
          ...(body ? { body: new Uint8Array(body) } : {}),
        }),
      );
      const text = Buffer.from(await answer.arrayBuffer());
      const answerHeaders = Object.fromEntries(answer.headers);
      answers.push({
        url: url.pathname,
        status: answer.status,
        headers: answerHeaders,
        body: text.toString(),
      });
      await route.fulfill({ status: answer.status, headers: answerHeaders, body: text });
    },
  );
  return answers;
}
