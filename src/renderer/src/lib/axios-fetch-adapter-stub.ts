/**
 * Stands in for axios's fetch adapter in the portal build (see electron.vite.config.ts): the
 * portal's one instance uses the XHR adapter, which every browser and Electron has and which axios
 * tries first, so the fetch adapter and its stream helpers are never used. Asking for it anyway
 * (`adapter: 'fetch'`) fails with axios's own "not supported by the environment" error.
 */
export const getFetch = (): false => false;

export default false;
