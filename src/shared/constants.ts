/** Business constants (timeouts, lifetimes, key derivation, paging) and the server's account policy. */

export const PRODUCT_NAME = 'Desktop AI Assistant';
/** Prefix of the product's local-storage names: the desktop assistant's name. */
export const STORAGE_PREFIX = 'desktop_ai_assistant';

export const API_TIMEOUT_MS = 30_000;
export const SESSION_INACTIVITY_TIMEOUT_MS = 30 * 60 * 1000;
export const SESSION_CHECK_INTERVAL_MS = 60_000;
export const TOKEN_REFRESH_CHECK_INTERVAL_MS = 60_000;
export const TOKEN_REFRESH_LEAD_MS = 5 * 60 * 1000;
export const TOKEN_REFRESH_IMMEDIATE_BELOW_MS = 60_000;
export const REFRESH_COOKIE_MAX_AGE_DAYS = 30;
export const ENCRYPTION_COOKIE_DEFAULT_MAX_AGE_DAYS = 7;
export const KEY_DERIVATION_ITERATIONS = [2000, 1000] as const;
export const KEY_LENGTH_BITS = 256;
export const SESSION_ID_BITS = 128;
export const SECURE_STORAGE_PREFIX = 'secure_';
export const DEFAULT_PAGE = 1;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;
export const QUERY_CACHE_SECONDS = 60;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
/** Absolute life of a refresh-token family: rotation never extends it. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
export const EMAIL_VERIFICATION_TTL_SECONDS = 24 * 60 * 60;
export const PASSWORD_RESET_TTL_SECONDS = 60 * 60;

export const USER_ROLES = ['user', 'admin'] as const;
/** An account's status: a disabled one cannot sign in. */
export const USER_STATUSES = ['active', 'disabled'] as const;
export type UserRole = (typeof USER_ROLES)[number];
export const DEFAULT_ROLE: UserRole = 'user';

/**
 * Days before a license bought once expires that its owner is reminded: the server's default for
 * LICENSE_EXPIRY_REMINDER_DAYS, and the window in which the portal flags a license as expiring soon.
 */
export const LICENSE_EXPIRY_REMINDER_DAYS_DEFAULT = 7;

/**
 * How long after signing in, or after proving itself again (step-up), a session may make
 * sensitive changes: e-mail, password, factors, API tokens, refunds, revocations, roles.
 */
export const STEP_UP_WINDOW_SECONDS = 10 * 60;

/**
 * The `<meta name=…>` in which the server hands the web portal its X-API-Key (the `web:` entry of
 * API_KEYS), so the key is set where the server runs, not when the portal is built.
 */
export const API_KEY_META_NAME = 'portal-api-key';
