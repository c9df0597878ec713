import { t } from '@lingui/core/macro';
import type { DownloadPlatform } from '../../../../../shared/api/licenses';
import type {
  AdminRelease,
  AdminReleaseList,
  AdminUpdateReleaseBody,
  ReleaseChannel,
} from '../../../../../shared/api/distribution';
import { pathWith } from '../../../../../shared/routes';
import { adminReleasesApiPaths } from '../../../../../shared/api-paths';
import { api } from '../../../lib/api';
import { recordEndpointArea } from '../../../lib/api-actions';

/**
 * The fallbacks of the administrators' release calls, shown when the server gives no
 * message, read when shown (a getter) so it is in the language shown then.
 */
export const adminReleaseMessages = {
  get fetchFailed() {
    return t`Failed to fetch the desktop releases`;
  },
  get updateFailed() {
    return t`Failed to change the release`;
  },
};

// A type, not an interface: the query's params must be an indexable record.
export type ReleaseFilter = {
  platform?: DownloadPlatform;
  channel?: ReleaseChannel;
};

/** Administrators: the desktop releases with their rollouts and counters, and changing one. */
export const adminReleasesApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /admin/releases: by platform, channel, newest first. */
      listReleases: build.query<AdminReleaseList, ReleaseFilter>({
        query: (params) => ({ url: adminReleasesApiPaths.list, params }),
        extraOptions: {
          get fallback() {
            return adminReleaseMessages.fetchFailed;
          },
        },
        providesTags: ['AdminRelease'],
      }),
      /** PATCH /admin/releases/{releaseId}: raise, pause, resume, yank, notes. */
      updateRelease: build.mutation<AdminRelease, { id: string; body: AdminUpdateReleaseBody }>({
        query: ({ id, body }) => ({
          url: pathWith(adminReleasesApiPaths.detail, { releaseId: id }),
          method: 'PATCH',
          body,
        }),
        extraOptions: {
          get fallback() {
            return adminReleaseMessages.updateFailed;
          },
        },
        invalidatesTags: ['AdminRelease'],
      }),
    };
    // The admin area: working here keeps the session alive like the other admin screens.
    recordEndpointArea('admin', Object.keys(endpoints));
    return endpoints;
  },
});

export const { useListReleasesQuery, useUpdateReleaseMutation } = adminReleasesApi;
