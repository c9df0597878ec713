import fp from 'fastify-plugin';
import { API_BASE_PATH } from '../../shared/routes.js';
import { createDownloadPermission, createUpdateAdmission } from '../licensing/index.js';
import { registerApiRoutes } from '../platform/http/api-scope.js';
import { createAdminReleasesService } from './admin-releases.js';
import { adminReleasesRoutes } from './admin-routes.js';
import { licenseDownloadRoutes } from './license-download-routes.js';
import { createLicenseDownloadsService } from './license-downloads.js';
import { downloadRoutes } from './routes.js';
import { createDownloadsService } from './service.js';
import { createDownloadLinks } from './signed-links.js';
import { createUpdateFeedService } from './update-feed.js';
import { createUpdateLinks } from './update-links.js';
import { updateRoutes } from './update-routes.js';
import { createCoveredVersions } from './update-windows.js';

/** Distribution: desktop releases, the update feed, and the installers a license holder downloads. */
export const distributionContext = fp(
  async (app) => {
    const { config, clock, db, serverSecret } = app.platform;
    const apiUrl = `${config.publicUrl}${API_BASE_PATH}`;
    const { releasesDir } = config.licensing;
    const downloadLinks = createDownloadLinks(serverSecret);
    await registerApiRoutes(app, async (api) => {
      await api.register(licenseDownloadRoutes, {
        downloads: createLicenseDownloadsService({
          db,
          clock,
          downloadLinks,
          apiUrl,
          mayDownload: createDownloadPermission({ db, clock }),
        }),
      });
      await api.register(downloadRoutes, {
        downloads: createDownloadsService({ db, clock, links: downloadLinks, releasesDir }),
      });
      await api.register(updateRoutes, {
        updates: createUpdateFeedService({
          db,
          clock,
          links: createUpdateLinks(serverSecret),
          releasesDir,
          apiUrl,
          coveredVersions: createCoveredVersions(db),
          admission: createUpdateAdmission({ db, clock }),
        }),
      });
      await api.register(adminReleasesRoutes, { releases: createAdminReleasesService({ db, clock }) });
    });
  },
  { name: 'distribution', dependencies: ['platform', 'licensing'] },
);
