import {
  appVersionSchema,
  type LicenseCheckStatus,
  licenseRefusalSchema,
  type LicenseStatusAnswer,
  licenseStatusSchema,
} from '../shared/api/licenses.js';
import type { FingerprintComponents } from '../shared/fingerprint.js';
import { licenseMessages } from '../shared/screen-messages.js';
import { API_BASE_PATH } from '../shared/routes.js';
import { apiPaths } from '../shared/api-paths.js';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** What one status request came to. */
export type StatusOutcome =
  | { kind: 'valid'; answer: LicenseStatusAnswer }
  /** The server refused the key on this machine (revoked, expired, deactivated, unknown…). */
  | {
      kind: 'refused';
      status: LicenseCheckStatus;
      message: string;
      requiresActivation: boolean;
      /** A paused license: when its subscription resumes. */
      resumesAt?: string;
    }
  /** No answer: the network failed, the request timed out, or the server could not answer (5xx, 429). */
  | { kind: 'unreachable'; reason: string }
  /** An answer that is neither a license status nor a refusal (e.g. the API key was refused). */
  | { kind: 'failed'; message: string };

export interface LicensingApi {
  /** `nonce`: a fresh value the answer must echo (and sign), so a captured answer cannot be replayed. */
  status(
    licenseKey: string,
    hardwareId: string,
    nonce?: string,
    components?: FingerprintComponents,
  ): Promise<StatusOutcome>;
}

export interface LicensingApiOptions {
  serverUrl: string;
  apiKey: string;
  fetch?: FetchLike;
  timeoutMs: number;
  /**
   * The version this app runs, sent with each check so a perpetual license whose update window
   * ended can say whether it covers it (left out when it is not a version number, e.g. a dev build).
   */
  appVersion?: string;
}

const describeNetworkError = (error: unknown): string => {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return 'the license server did not answer in time';
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  return cause?.code
    ? `the license server could not be reached (${cause.code})`
    : 'the license server could not be reached';
};

const readJson = async (response: Response): Promise<unknown> => {
  try {
    return (await response.json()) as unknown;
  } catch {
    return undefined;
  }
};

/**
 * GET /licensing/status with the desktop's API key (no sign-in needed). The lease keys are never
 * fetched: whatever server answers could serve its own (they are pinned at build time instead).
 */
export function createLicensingApi(options: LicensingApiOptions): LicensingApi {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const appVersion = appVersionSchema.safeParse(options.appVersion).data;
  const get = (path: string) =>
    fetchImpl(`${options.serverUrl}${API_BASE_PATH}${path}`, {
      headers: { accept: 'application/json', 'x-api-key': options.apiKey },
      signal: AbortSignal.timeout(options.timeoutMs),
    });

  return {
    async status(licenseKey, hardwareId, nonce, components) {
      const query = new URLSearchParams({ license_key: licenseKey, hardware_id: hardwareId });
      if (appVersion) query.set('app_version', appVersion);
      if (nonce) query.set('nonce', nonce);
      // Hashed in main already: the server recognises the machine by them after a part changed.
      if (components)
        query.set(
          'components',
          Object.entries(components)
            .map(([name, hash]) => `${name}:${hash}`)
            .join(','),
        );
      let response: Response;
      let body: unknown;
      try {
        response = await get(`${apiPaths.licensing.status}?${query}`);
        body = await readJson(response);
      } catch (error) {
        return { kind: 'unreachable', reason: describeNetworkError(error) };
      }
      if (response.status >= 500 || response.status === 429)
        return { kind: 'unreachable', reason: `the license server answered ${response.status}` };
      if (response.ok) {
        const answer = licenseStatusSchema.safeParse(body);
        return answer.success
          ? { kind: 'valid', answer: answer.data }
          : { kind: 'failed', message: 'The license server sent an answer this app cannot read' };
      }
      const refusal = licenseRefusalSchema.safeParse(body);
      if (refusal.success && refusal.data.valid === false && refusal.data.status)
        return {
          kind: 'refused',
          status: refusal.data.status,
          message: refusal.data.message,
          requiresActivation: refusal.data.requires_activation ?? false,
          ...(refusal.data.resumes_at ? { resumesAt: refusal.data.resumes_at } : {}),
        };
      return {
        kind: 'failed',
        message: refusal.success ? refusal.data.message : licenseMessages.statusCheckFailed,
      };
    },
  };
}
