import { type LeaseSigningKeys, leaseSigningKeysSchema } from '../shared/api/licenses.js';

/** The product name: the keychain service, the window title and electron-builder's productName. */
export const PRODUCT_NAME = 'Desktop AI Assistant';
/** The client key the API server knows the desktop by (DEFAULT_API_KEYS of the server). */
export const DESKTOP_API_KEY = 'dap-desktop-public';
/** The API server of a development checkout (`npm start` listens here). */
export const DEFAULT_SERVER_URL = 'http://127.0.0.1:8080';
/** How often main checks the license in the background (keeps the 7-day offline lease fresh). */
export const DEFAULT_LICENSE_CHECK_INTERVAL_MINUTES = 60;

/** What the desktop shell reads from its environment (docs/desktop.md, "Environment variables"). */
export interface DesktopConfig {
  /** Origin of the API server, e.g. https://portal.example.com (no trailing slash). */
  serverUrl: string;
  apiKey: string;
  /** electron-vite's dev server in development; the renderer is then loaded from there. */
  devServerUrl: string | undefined;
  /** Hosts (and their subdomains) that links may open in the system browser, https only. */
  externalHosts: string[];
  licenseCheckIntervalMs: number;
  /** Timeout of one request to the API server; a check that takes longer counts as offline. */
  requestTimeoutMs: number;
  /**
   * The only keys a lease is verified with (pinned at build time, or in development from
   * DESKTOP_LEASE_PUBLIC_KEYS); none means no offline use, and online answers are taken unverified.
   */
  leasePublicKeys: LeaseSigningKeys | undefined;
}

export interface DesktopConfigOptions {
  /** `app.isPackaged`: the environment may then not change the server or the lease keys. */
  packaged: boolean;
  /** MAIN_VITE_SERVER_URL at build time. */
  builtInServerUrl?: string | undefined;
  /** MAIN_VITE_LEASE_PUBLIC_KEYS at build time: the JSON of GET /api/v1/licensing/public-key. */
  builtInLeasePublicKeys?: string | undefined;
  /** Where decisions worth knowing (an ignored variable) are reported. */
  log?: (message: string) => void;
}

export class DesktopConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`The desktop shell is misconfigured:\n- ${problems.join('\n- ')}`);
    this.name = 'DesktopConfigError';
  }
}

/** An http(s) URL reduced to its origin, or a description of what is wrong with it. */
export function parseServerUrl(value: string): { origin: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return { problem: `'${value}' is not a URL (expected e.g. https://portal.example.com)` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { problem: `'${value}' must start with https:// or http://` };
  if (url.username || url.password) return { problem: `'${value}' must not contain a user name or password` };
  if (url.pathname !== '/' || url.search || url.hash)
    return {
      problem: `'${value}' must be the server's address only, without a path (the API is under /api/v1)`,
    };
  return { origin: url.origin };
}

/** 127.0.0.1 (and the rest of 127/8), localhost and ::1: traffic that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** A `{ keys: [JWK…] }` document as the server serves it, or a description of what is wrong. */
export function parseLeasePublicKeys(text: string): { keys: LeaseSigningKeys } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: 'is not JSON (expected the answer of GET /api/v1/licensing/public-key)' };
  }
  const parsed = leaseSigningKeysSchema.safeParse(json);
  if (!parsed.success)
    return { problem: 'is not a list of Ed25519 keys as GET /api/v1/licensing/public-key serves it' };
  if (parsed.data.keys.length === 0) return { problem: 'lists no key' };
  return { keys: parsed.data };
}

function positiveInteger(name: string, raw: string | undefined, fallback: number, problems: string[]) {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    problems.push(`${name} must be a whole number above 0 (got '${raw}')`);
    return fallback;
  }
  return value;
}

/**
 * Reads DESKTOP_SERVER_URL, DESKTOP_EXTERNAL_HOSTS, DESKTOP_LICENSE_CHECK_INTERVAL_MINUTES,
 * DESKTOP_REQUEST_TIMEOUT_SECONDS and DESKTOP_LEASE_PUBLIC_KEYS; fails with every problem listed.
 * `builtInServerUrl` and `builtInLeasePublicKeys` are baked in at build time. A packaged app
 * ignores DESKTOP_SERVER_URL (unless it names the built-in server) and DESKTOP_LEASE_PUBLIC_KEYS,
 * and talks plain http only to this machine: whoever runs it must not be able to point it at a
 * server of their own.
 */
export function loadDesktopConfig(
  env: Record<string, string | undefined>,
  options: DesktopConfigOptions,
): DesktopConfig {
  const { packaged } = options;
  const log = options.log ?? (() => undefined);
  const problems: string[] = [];
  const builtInServerUrl = options.builtInServerUrl || undefined;

  const builtInServer = parseServerUrl(builtInServerUrl ?? DEFAULT_SERVER_URL);
  if ('problem' in builtInServer) problems.push(`MAIN_VITE_SERVER_URL: ${builtInServer.problem}`);
  let server = builtInServer;
  let serverVariable = 'MAIN_VITE_SERVER_URL';
  const requested = env['DESKTOP_SERVER_URL'];
  if (requested) {
    const parsed = parseServerUrl(requested);
    const builtInOrigin = 'origin' in builtInServer ? builtInServer.origin : undefined;
    if (packaged && !('origin' in parsed && parsed.origin === builtInOrigin))
      log(
        `DESKTOP_SERVER_URL (${requested}) is ignored: a packaged app talks only to its built-in server (${builtInOrigin ?? 'none'})`,
      );
    else if ('problem' in parsed) problems.push(`DESKTOP_SERVER_URL: ${parsed.problem}`);
    else {
      server = parsed;
      serverVariable = 'DESKTOP_SERVER_URL';
    }
  }
  // A packaged app's license answers must come from the real server: no plain http on the network.
  if (packaged && 'origin' in server) {
    const url = new URL(server.origin);
    if (url.protocol !== 'https:' && !isLoopbackHost(url.hostname))
      problems.push(
        `${serverVariable}: '${server.origin}' must use https:// (plain http only to 127.0.0.1, localhost or ::1)`,
      );
  }

  let leasePublicKeys: LeaseSigningKeys | undefined;
  const builtInKeys = options.builtInLeasePublicKeys?.trim();
  if (builtInKeys) {
    const parsed = parseLeasePublicKeys(builtInKeys);
    if ('problem' in parsed) problems.push(`MAIN_VITE_LEASE_PUBLIC_KEYS ${parsed.problem}`);
    else leasePublicKeys = parsed.keys;
  }
  const keysOverride = env['DESKTOP_LEASE_PUBLIC_KEYS']?.trim();
  if (keysOverride) {
    if (packaged)
      log('DESKTOP_LEASE_PUBLIC_KEYS is ignored: a packaged app trusts only the lease keys built into it');
    else {
      const parsed = parseLeasePublicKeys(keysOverride);
      if ('problem' in parsed) problems.push(`DESKTOP_LEASE_PUBLIC_KEYS ${parsed.problem}`);
      else leasePublicKeys = parsed.keys;
    }
  }

  const externalHosts = (env['DESKTOP_EXTERNAL_HOSTS'] ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);
  for (const host of externalHosts)
    if (!/^[a-z0-9.-]+$/.test(host))
      problems.push(`DESKTOP_EXTERNAL_HOSTS: '${host}' is not a host name (no scheme, port or path)`);

  const intervalMinutes = positiveInteger(
    'DESKTOP_LICENSE_CHECK_INTERVAL_MINUTES',
    env['DESKTOP_LICENSE_CHECK_INTERVAL_MINUTES'],
    DEFAULT_LICENSE_CHECK_INTERVAL_MINUTES,
    problems,
  );
  const timeoutSeconds = positiveInteger(
    'DESKTOP_REQUEST_TIMEOUT_SECONDS',
    env['DESKTOP_REQUEST_TIMEOUT_SECONDS'],
    15,
    problems,
  );
  if (problems.length > 0 || 'problem' in server) throw new DesktopConfigError(problems);

  const serverHost = new URL(server.origin);
  return {
    serverUrl: server.origin,
    apiKey: DESKTOP_API_KEY,
    // A packaged app never loads a dev server, whatever its environment says.
    devServerUrl: packaged ? undefined : env['ELECTRON_RENDERER_URL'] || undefined,
    externalHosts: [
      ...new Set([...(serverHost.protocol === 'https:' ? [serverHost.hostname] : []), ...externalHosts]),
    ],
    licenseCheckIntervalMs: intervalMinutes * 60_000,
    requestTimeoutMs: timeoutSeconds * 1000,
    leasePublicKeys,
  };
}
