/**
 * The licensing context as the contexts that may use it see it (docs/architecture.md): only what
 * one of them asks of it is exported here, and nothing else of licensing is imported from outside.
 */
export { createDownloadPermission, type DownloadPermission } from './licenses/download-permission.js';
