import { API_BASE_PATH } from '../../../shared/routes.js';
import { apiPaths } from '../../../shared/api-paths.js';

const CHECK_PATHS = [apiPaths.licenses.validate, apiPaths.licensing.status].map(
  (path) => `${API_BASE_PATH}${path}`,
);
/** Whether a request URL is one of the two license-check routes. */
export const isLicenseCheckUrl = (url: string): boolean =>
  CHECK_PATHS.some(
    (path) => url.startsWith(path) && (url.length === path.length || url[path.length] === '?'),
  );
