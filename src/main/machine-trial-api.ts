import { type StartTrialRequest, type TrialStarted, trialStartedSchema } from '../shared/api/licenses.js';
import { type MachineTrial, machineTrialSchema } from '../shared/api/machine-trials.js';
import { apiErrorSchema } from '../shared/api/errors.js';
import { API_BASE_PATH, apiPaths } from '../shared/routes.js';
import type { FetchLike } from './licensing-api.js';

/** What one trial request came to. */
export type TrialOutcome<T> =
  | { kind: 'ok'; answer: T }
  /** The server said no, with its code (`machine_trial_used`, `trial_already_used`…) and words. */
  | { kind: 'refused'; code: string; message: string }
  /** No answer: the network failed, the request timed out, or the server could not answer (5xx, 429). */
  | { kind: 'unreachable'; reason: string }
  /** An answer this app cannot read. */
  | { kind: 'failed'; message: string };

export interface MachineTrialApi {
  /** `POST /machine-trials` with the desktop's API key: this machine's trial, new or running. */
  startMachineTrial(hardwareId: string, planId: string | undefined): Promise<TrialOutcome<MachineTrial>>;
  /** `POST /licenses/trials` as the account just signed in: the account trial, taking the machine's over. */
  startAccountTrial(accessToken: string, body: StartTrialRequest): Promise<TrialOutcome<TrialStarted>>;
}

export interface MachineTrialApiOptions {
  serverUrl: string;
  apiKey: string;
  fetch?: FetchLike;
  timeoutMs: number;
}

const unreadable = 'The license server sent an answer this app cannot read';

/** The trial calls main makes itself (the renderer never sees the machine's lease). */
export function createMachineTrialApi(options: MachineTrialApiOptions): MachineTrialApi {
  const fetchImpl = options.fetch ?? globalThis.fetch;

  async function post<T>(
    path: string,
    body: unknown,
    schema: { safeParse(value: unknown): { success: boolean; data?: T } },
    accessToken?: string,
  ): Promise<TrialOutcome<T>> {
    let response: Response;
    let answer: unknown;
    try {
      response = await fetchImpl(`${options.serverUrl}${API_BASE_PATH}${path}`, {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          'x-api-key': options.apiKey,
          ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      answer = await response.json().catch(() => undefined);
    } catch {
      return { kind: 'unreachable', reason: 'the license server could not be reached' };
    }
    if (response.status >= 500 || response.status === 429)
      return { kind: 'unreachable', reason: `the license server answered ${response.status}` };
    if (response.ok) {
      const parsed = schema.safeParse(answer);
      return parsed.success && parsed.data !== undefined
        ? { kind: 'ok', answer: parsed.data }
        : { kind: 'failed', message: unreadable };
    }
    const refusal = apiErrorSchema.safeParse(answer);
    return refusal.success
      ? { kind: 'refused', code: refusal.data.code, message: refusal.data.message }
      : { kind: 'failed', message: unreadable };
  }

  return {
    startMachineTrial: (hardwareId, planId) =>
      post(
        apiPaths.machineTrials.start,
        { hardware_id: hardwareId, ...(planId ? { plan_id: planId } : {}) },
        machineTrialSchema,
      ),
    startAccountTrial: (accessToken, body) =>
      post(apiPaths.licenses.trials, body, trialStartedSchema, accessToken),
  };
}
