import { describe, expect, it } from 'vitest';
import * as constants from '../../src/shared/constants';

/* Pins the shared timing, storage and paging constants to their documented values. */

describe('constants', () => {
  it.each([
    ['API_TIMEOUT_MS', 30_000],
    ['SESSION_INACTIVITY_TIMEOUT_MS', 30 * 60_000],
    ['SESSION_CHECK_INTERVAL_MS', 60_000],
    ['TOKEN_REFRESH_CHECK_INTERVAL_MS', 60_000],
    ['TOKEN_REFRESH_LEAD_MS', 5 * 60_000],
    ['TOKEN_REFRESH_IMMEDIATE_BELOW_MS', 60_000],
    ['REFRESH_COOKIE_MAX_AGE_DAYS', 30],
    ['ENCRYPTION_COOKIE_DEFAULT_MAX_AGE_DAYS', 7],
    ['KEY_DERIVATION_ITERATIONS', [2000, 1000]],
    ['KEY_LENGTH_BITS', 256],
    ['SESSION_ID_BITS', 128],
    ['SECURE_STORAGE_PREFIX', 'secure_'],
    ['DEFAULT_PAGE', 1],
    ['DEFAULT_PAGE_SIZE', 10],
    ['QUERY_CACHE_SECONDS', 60],
  ] as const)('%s is %j', (name, value) => {
    expect((constants as Record<string, unknown>)[name]).toEqual(value);
  });
});
