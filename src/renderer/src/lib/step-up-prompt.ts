/**
 * Step-up: a sensitive change (password, factors, API tokens, refunds, revocations, roles) the
 * server refuses with 403 `step_up_required` until the session proves itself again. The signed-in
 * layout registers a prompt (a dialog asking for the password or a code, which calls
 * /auth/step-up); the API layer asks it and retries the change once it resolves true.
 */
type Prompt = () => Promise<boolean>;

let prompt: Prompt | null = null;
let asking: Promise<boolean> | null = null;

/** Registers the dialog; answers the function that unregisters it. */
export function setStepUpPrompt(next: Prompt): () => void {
  prompt = next;
  return () => {
    if (prompt === next) prompt = null;
  };
}

/** Asks once for every change refused at the same moment; false when nobody can ask or the user declined. */
export function promptStepUp(): Promise<boolean> {
  if (!prompt) return Promise.resolve(false);
  asking ??= prompt().finally(() => {
    asking = null;
  });
  return asking;
}

export const STEP_UP_REQUIRED = 'step_up_required';
