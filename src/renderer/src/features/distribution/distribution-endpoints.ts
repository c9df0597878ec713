import { t } from '@lingui/core/macro';
import type { ReleaseChannel } from '../../../../shared/api/distribution';
import type { UpdateState } from '../../../../shared/bridge';
import { recordEndpointArea } from '../../lib/api-actions';
import { api, servicesOf } from '../../lib/api';
import { attempt } from '../../lib/api-errors';

/**
 * The fallbacks of the update calls, shown when main gives no message. Each is read when it is
 * shown (a getter), so it is in the language shown then.
 */
export const updateMessages = {
  get readFailed() {
    return t`Could not read the state of updates`;
  },
  get checkFailed() {
    return t`Could not check for updates`;
  },
  get installFailed() {
    return t`Could not restart to update`;
  },
  get channelFailed() {
    return t`Could not change the update channel`;
  },
};

/** An endpoint's `extraOptions`: its fallback, read when a call fails. */
const fallback = (name: keyof typeof updateMessages) => ({
  get fallback() {
    return updateMessages[name];
  },
});

/**
 * The desktop app's own updates, through the bridge (main's electron-updater): no server call. On
 * the web every answer is null, so nothing shows. The state is read once and then follows what main
 * sends, so progress reaches every screen showing it.
 */
export const desktopUpdatesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDesktopUpdateState: build.query<UpdateState | null, void>({
      queryFn: (_args, queryApi, options) =>
        attempt(async () => {
          const { updates } = servicesOf(queryApi).platform;
          return updates ? updates.getUpdateState() : null;
        }, options),
      extraOptions: fallback('readFailed'),
      async onCacheEntryAdded(_args, { extra, cacheDataLoaded, cacheEntryRemoved, updateCachedData }) {
        const { updates } = servicesOf({ extra }).platform;
        if (!updates) return;
        // Changes sent before the first answer arrives are not lost: the listener starts first.
        let latest: UpdateState | undefined;
        const stop = updates.onUpdateStateChange((state) => {
          latest = state;
          updateCachedData(() => state);
        });
        try {
          await cacheDataLoaded;
          if (latest) updateCachedData(() => latest);
        } catch {
          // The entry went before its first answer: nothing to follow.
        }
        await cacheEntryRemoved;
        stop();
      },
    }),

    getDesktopUpdateChannel: build.query<ReleaseChannel | null, void>({
      queryFn: (_args, queryApi, options) =>
        attempt(async () => {
          const { updates } = servicesOf(queryApi).platform;
          return updates ? updates.getUpdateChannel() : null;
        }, options),
      extraOptions: fallback('readFailed'),
    }),

    /** "Check now": the state it leaves also arrives through the subscription. */
    checkForDesktopUpdates: build.mutation<UpdateState | null, void>({
      queryFn: (_args, queryApi, options) =>
        attempt(async () => {
          const { updates } = servicesOf(queryApi).platform;
          return updates ? updates.checkForUpdates() : null;
        }, options),
      extraOptions: fallback('checkFailed'),
    }),

    /** "Restart to update": main quits and installs; false when nothing was downloaded. */
    installDesktopUpdate: build.mutation<boolean, void>({
      queryFn: (_args, queryApi, options) =>
        attempt(async () => {
          const { updates } = servicesOf(queryApi).platform;
          return updates ? updates.installUpdate() : false;
        }, options),
      extraOptions: fallback('installFailed'),
    }),

    setDesktopUpdateChannel: build.mutation<ReleaseChannel | null, ReleaseChannel>({
      queryFn: (channel, queryApi, options) =>
        attempt(async () => {
          const { updates } = servicesOf(queryApi).platform;
          return updates ? updates.setUpdateChannel(channel) : null;
        }, options),
      extraOptions: fallback('channelFailed'),
      async onQueryStarted(_channel, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data)
          dispatch(desktopUpdatesApi.util.updateQueryData('getDesktopUpdateChannel', undefined, () => data));
      },
    }),
  }),
});

recordEndpointArea('distribution', [
  'getDesktopUpdateState',
  'getDesktopUpdateChannel',
  'checkForDesktopUpdates',
  'installDesktopUpdate',
  'setDesktopUpdateChannel',
]);

export const {
  useGetDesktopUpdateStateQuery,
  useGetDesktopUpdateChannelQuery,
  useCheckForDesktopUpdatesMutation,
  useInstallDesktopUpdateMutation,
  useSetDesktopUpdateChannelMutation,
} = desktopUpdatesApi;
