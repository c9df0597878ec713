import { randomUUID } from 'node:crypto';
import { type Clock, isoAfterSeconds, isoNow } from '../../platform/clock.js';
import { randomToken, sha256 } from '../../platform/crypto.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { AuthChallengeKind, AuthChallengeRow } from '../../platform/db/tables.js';
import {
  claimChallenge,
  countChallengeAttempt,
  findLiveChallenge,
  insertChallenge,
} from './challenges-repository.js';

/**
 * Short-lived, single-use challenges: a sign-in that waits for its second factor, a WebAuthn
 * ceremony's random challenge. The client holds a random token (or the challenge's id); only its
 * hash is stored, and using a challenge is one conditional update, so of two concurrent uses
 * exactly one wins.
 */
export interface IssuedChallenge {
  id: string;
  /** What the client sends back; absent when the challenge is found by id. */
  token: string;
  expiresAt: string;
}

export async function issueChallenge(
  db: DbOrTransaction,
  clock: Clock,
  challenge: {
    kind: AuthChallengeKind;
    userId: string | null;
    ttlSeconds: number;
    /** The random challenge of a WebAuthn ceremony, when this is one. */
    webauthnChallenge?: string;
  },
): Promise<IssuedChallenge> {
  const id = randomUUID();
  const token = randomToken();
  const expiresAt = isoAfterSeconds(clock, challenge.ttlSeconds);
  await insertChallenge(db, {
    id,
    kind: challenge.kind,
    user_id: challenge.userId,
    token_hash: sha256(token),
    webauthn_challenge: challenge.webauthnChallenge ?? null,
    created_at: isoNow(clock),
    expires_at: expiresAt,
  });
  return { id, token, expiresAt };
}

/** The live (unused, unexpired) challenge of `kind` the client's token names, without using it. */
export const findChallenge = (
  db: DbOrTransaction,
  clock: Clock,
  kind: AuthChallengeKind | readonly AuthChallengeKind[],
  token: string,
) => findLiveChallenge(db, { kind, tokenHash: sha256(token) }, isoNow(clock));

/**
 * Uses the challenge: answers its row to the one caller that used it, undefined when it was
 * unknown, expired or used already (by this caller or a concurrent one).
 */
export async function useChallenge(
  db: DbOrTransaction,
  clock: Clock,
  kind: AuthChallengeKind | readonly AuthChallengeKind[],
  token: string,
): Promise<AuthChallengeRow | undefined> {
  const now = isoNow(clock);
  const row = await findLiveChallenge(db, { kind, tokenHash: sha256(token) }, now);
  if (!row || !(await claimChallenge(db, row.id, now))) return undefined;
  return row;
}

/** Counts a wrong answer to the challenge and answers how many it has had. */
export const recordWrongAnswer = (db: DbOrTransaction, challengeId: string) =>
  countChallengeAttempt(db, challengeId);
