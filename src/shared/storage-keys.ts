import { STORAGE_PREFIX } from './constants.js';

/** Encrypted entries: access token and user data in session storage, the refresh token in a cookie. */
export const secureStorageKeys = {
  accessToken: 'secure_access_token',
  refreshToken: 'secure_refresh_token',
  userData: 'secure_user_data',
} as const;

/** Local-storage names, prefixed with the product's desktop assistant name. */
export const localStorageKeys = {
  licenseKey: `${STORAGE_PREFIX}_license_key`,
  accessToken: `${STORAGE_PREFIX}_access_token`,
  refreshToken: `${STORAGE_PREFIX}_refresh_token`,
  userData: `${STORAGE_PREFIX}_user_data`,
  hardwareId: 'hardware_id',
} as const;

/** The portal's language last chosen in this browser, read before the first screen renders. */
export const LANGUAGE_STORAGE_KEY = 'portal_language';

/** The currency prices were last chosen to be shown in, in this browser. */
export const CURRENCY_STORAGE_KEY = 'portal_currency';
