import { type StartTrialRequest, type TrialStarted, trialStartedSchema } from '../shared/api/licenses.js';
import { type MachineTrial, machineTrialSchema } from '../shared/api/machine-trials.js';
import { apiPaths } from '../shared/api-paths.js';
import { postToServer, refusalIn, type ServerPostOptions, unreadableAnswer } from './server-post.js';

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

export type MachineTrialApiOptions = ServerPostOptions;

/** The trial calls main makes itself (the renderer never sees the machine's lease). */
export function createMachineTrialApi(options: MachineTrialApiOptions): MachineTrialApi {
  async function post<T>(
    path: string,
    body: unknown,
    schema: { safeParse(value: unknown): { success: boolean; data?: T } },
    accessToken?: string,
  ): Promise<TrialOutcome<T>> {
    const result = await postToServer(options, path, body, accessToken);
    if (!result.reached) return { kind: 'unreachable', reason: result.reason };
    if (result.ok) {
      const parsed = schema.safeParse(result.body);
      return parsed.success && parsed.data !== undefined
        ? { kind: 'ok', answer: parsed.data }
        : { kind: 'failed', message: unreadableAnswer };
    }
    const refusal = refusalIn(result.body);
    return refusal ? { kind: 'refused', ...refusal } : { kind: 'failed', message: unreadableAnswer };
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
