/**
 * Sign-ins in this app, as main sees them pass (refresh-token-keeper.ts): what main does on its
 * own when someone signs in, such as taking the machine trial over as the account's trial.
 */
export interface SignIns {
  /** Hears each sign-in with its access token; a listener that fails does not fail the sign-in. */
  onSignIn(listener: (accessToken: string) => Promise<unknown>): void;
  /** Runs the listeners, one after another, before the sign-in's answer reaches the renderer. */
  signedIn(accessToken: string): Promise<void>;
  /** Hears an access token a refresh issued (main sends the app's usage as the signed-in user). */
  refreshed(accessToken: string): void;
  /** The access token last issued to the app, by a sign-in or a refresh; null before any. */
  latestAccessToken(): string | null;
}

export function createSignIns(log: (message: string) => void = () => undefined): SignIns {
  const listeners: ((accessToken: string) => Promise<unknown>)[] = [];
  let latest: string | null = null;
  return {
    onSignIn: (listener) => listeners.push(listener),
    refreshed: (accessToken) => {
      latest = accessToken;
    },
    latestAccessToken: () => latest,
    async signedIn(accessToken) {
      latest = accessToken;
      for (const listener of listeners)
        await listener(accessToken).catch((error: unknown) =>
          log(`After sign-in: ${error instanceof Error ? error.message : String(error)}`),
        );
    },
  };
}
