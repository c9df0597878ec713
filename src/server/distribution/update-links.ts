import type { AdmittedMachineRef } from '../licensing/index.js';
import { createSignedTokens } from './signed-tokens.js';

/**
 * An update feed URL works for an hour: the app asks for a fresh one before each check, and a
 * download it starts within the hour runs to its end.
 */
export const UPDATE_FEED_TTL_SECONDS = 60 * 60;

export interface UpdateGrant {
  /**
   * The machine: its activation, or the floating seat it held when it checked. The feed checks it
   * (and its license) again on every request, so a seat released or lapsed gets nothing more.
   */
  machine: Pick<AdmittedMachineRef, 'kind' | 'id'>;
  /** The release the machine reported running, if it is one the server published. */
  currentReleaseId: string | null;
  /** Seconds since the epoch. */
  expiresAt: number;
}

/**
 * Signs and checks update feed tokens, in the download links' form (signed-tokens.ts) under a key
 * of their own per kind of machine (so a seat's id is never read as an activation's, and the
 * token stays two ids long). The token goes in the feed URL's path: electron-updater keeps a feed
 * URL's path, not its query, when it resolves the files a channel file names.
 */
export function createUpdateLinks(serverSecret: Uint8Array) {
  const tokens = {
    activation: createSignedTokens(serverSecret, 'update-feed'),
    floating: createSignedTokens(serverSecret, 'update-feed-floating-seat'),
  };
  return {
    sign: ({ machine, currentReleaseId, expiresAt }: UpdateGrant): string =>
      tokens[machine.kind].sign({ first: machine.id, second: currentReleaseId, expiresAt }),

    /** The grant of a genuine, unexpired token; undefined for anything else. */
    verify(token: string, nowSeconds: number): UpdateGrant | undefined {
      for (const kind of ['activation', 'floating'] as const) {
        const grant = tokens[kind].verify(token, nowSeconds);
        if (grant)
          return {
            machine: { kind, id: grant.first },
            currentReleaseId: grant.second,
            expiresAt: grant.expiresAt,
          };
      }
      return undefined;
    },
  };
}

export type UpdateLinks = ReturnType<typeof createUpdateLinks>;
