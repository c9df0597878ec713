import { t } from '@lingui/core/macro';
import type {
  OfflineActivationResult,
  OfflineDeactivationResult,
} from '../../../../shared/api/offline-activation';
import type { OfflineFile, OfflineImportResult } from '../../../../shared/bridge';
import { offlineActivationApiPaths } from '../../../../shared/api-paths';
import { api, servicesOf } from '../../lib/api';
import { attempt } from '../../lib/api-errors';

/**
 * The fallbacks of the activation-by-file calls, shown when the server gives no message. Each is
 * read when it is shown (a getter), so it is in the language shown then.
 */
export const offlineActivationMessages = {
  get activateFailed() {
    return t`Could not activate the machine from this file`;
  },
  get deactivateFailed() {
    return t`Could not sign the machine out with this file`;
  },
  get requestFailed() {
    return t`Could not write the activation request`;
  },
  get importFailed() {
    return t`Could not import the license file`;
  },
  get signOutFailed() {
    return t`Could not sign this machine out`;
  },
};

/** An endpoint's `extraOptions`: its fallback, read when a call fails. */
const fallback = (name: keyof typeof offlineActivationMessages) => ({
  get fallback() {
    return offlineActivationMessages[name];
  },
});

/** The desktop's side, which only main can do: refused on the web, which has no machine to activate. */
const desktopOnly = () => new Error(t`Activation by file happens in the desktop app.`);

/** Who uploads: the customer for their own licenses, an administrator for any license. */
export type Uploader = 'customer' | 'admin';
interface Upload {
  as: Uploader;
  /** The file's JSON as the app wrote it; the server checks every field. */
  file: unknown;
}

const paths = offlineActivationApiPaths;

/** Activation by file: a request file in and a license file out; a signed-out proof frees the seat. */
export const offlineActivationApi = api.injectEndpoints({
  endpoints: (build) => ({
    uploadOfflineActivationRequest: build.mutation<OfflineActivationResult, Upload>({
      query: ({ as, file }) => ({
        url: as === 'admin' ? paths.adminActivate : paths.activate,
        method: 'POST',
        body: file,
      }),
      extraOptions: fallback('activateFailed'),
      invalidatesTags: ['License'],
    }),
    uploadOfflineDeactivationProof: build.mutation<OfflineDeactivationResult, Upload>({
      query: ({ as, file }) => ({
        url: as === 'admin' ? paths.adminDeactivate : paths.deactivate,
        method: 'POST',
        body: file,
      }),
      extraOptions: fallback('deactivateFailed'),
      invalidatesTags: ['License'],
    }),

    /** This machine's activation request, written by main for the key. */
    writeOfflineActivationRequest: build.mutation<OfflineFile, string>({
      queryFn: (licenseKey, queryApi, options) =>
        attempt(async () => {
          const { offline } = servicesOf(queryApi).platform;
          if (!offline) throw desktopOnly();
          return offline.writeOfflineActivationRequest(licenseKey);
        }, options),
      extraOptions: fallback('requestFailed'),
    }),
    importOfflineLicenseFile: build.mutation<OfflineImportResult, string>({
      queryFn: (contents, queryApi, options) =>
        attempt(async () => {
          const { offline } = servicesOf(queryApi).platform;
          if (!offline) throw desktopOnly();
          return offline.importOfflineLicenseFile(contents);
        }, options),
      extraOptions: fallback('importFailed'),
      invalidatesTags: ['License'],
    }),
    /** Forgets the license file; the answer is the proof to upload, null when there was none. */
    signOutOfflineLicense: build.mutation<OfflineFile | null, void>({
      queryFn: (_args, queryApi, options) =>
        attempt(async () => {
          const { offline } = servicesOf(queryApi).platform;
          if (!offline) throw desktopOnly();
          return offline.signOutOfflineLicense();
        }, options),
      extraOptions: fallback('signOutFailed'),
      invalidatesTags: ['License'],
    }),
  }),
});

export const {
  useUploadOfflineActivationRequestMutation,
  useUploadOfflineDeactivationProofMutation,
  useWriteOfflineActivationRequestMutation,
  useImportOfflineLicenseFileMutation,
  useSignOutOfflineLicenseMutation,
} = offlineActivationApi;
