/**
 * Told of each sign-in's end (the composition counts them for the metrics): a session started,
 * with the methods that proved who it was (`pwd`, `otp`, `webauthn`, …), or an attempt refused.
 */
export interface SignInObserver {
  succeeded(methods: readonly string[]): void;
  /** `reason`: as the security log has it, e.g. `wrong_password`, `unknown_account`, `locked_out`. */
  failed(failure: { method: string; reason: string }): void;
}

export const unobservedSignIns: SignInObserver = {
  succeeded: () => undefined,
  failed: () => undefined,
};
