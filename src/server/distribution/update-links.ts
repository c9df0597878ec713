import { createSignedTokens } from './signed-tokens.js';

/**
 * An update feed URL works for an hour: the app asks for a fresh one before each check, and a
 * download it starts within the hour runs to its end.
 */
export const UPDATE_FEED_TTL_SECONDS = 60 * 60;

export interface UpdateGrant {
  /** The machine's activation: the feed checks it (and its license) again on every request. */
  activationId: string;
  /** The release the machine reported running, if it is one the server published. */
  currentReleaseId: string | null;
  /** Seconds since the epoch. */
  expiresAt: number;
}

/**
 * Signs and checks update feed tokens, in the download links' form (signed-tokens.ts) under a key
 * of their own. The token goes in the feed URL's path: electron-updater keeps a feed URL's path,
 * not its query, when it resolves the files a channel file names.
 */
export function createUpdateLinks(serverSecret: Uint8Array) {
  const tokens = createSignedTokens(serverSecret, 'update-feed');
  return {
    sign: ({ activationId, currentReleaseId, expiresAt }: UpdateGrant): string =>
      tokens.sign({ first: activationId, second: currentReleaseId, expiresAt }),

    /** The grant of a genuine, unexpired token; undefined for anything else. */
    verify(token: string, nowSeconds: number): UpdateGrant | undefined {
      const grant = tokens.verify(token, nowSeconds);
      return grant
        ? { activationId: grant.first, currentReleaseId: grant.second, expiresAt: grant.expiresAt }
        : undefined;
    },
  };
}

export type UpdateLinks = ReturnType<typeof createUpdateLinks>;
