import type {
  OfflineActivationResult,
  OfflineDeactivationResult,
} from '../../../../shared/api/offline-activation';
import { apiPaths } from '../../../../shared/routes';
import { api } from '../../lib/api';

// The fallbacks of the activation-by-file calls, shown when the server gives no message.
export const offlineActivationMessages = {
  activateFailed: 'Could not activate the machine from this file',
  deactivateFailed: 'Could not sign the machine out with this file',
} as const;

/** Who uploads: the customer for their own licenses, an administrator for any license. */
export type Uploader = 'customer' | 'admin';
interface Upload {
  as: Uploader;
  /** The file's JSON as the app wrote it; the server checks every field. */
  file: unknown;
}

const paths = apiPaths.offlineActivation;

/** Activation by file: a request file in and a license file out; a signed-out proof frees the seat. */
export const offlineActivationApi = api.injectEndpoints({
  endpoints: (build) => ({
    uploadOfflineActivationRequest: build.mutation<OfflineActivationResult, Upload>({
      query: ({ as, file }) => ({
        url: as === 'admin' ? paths.adminActivate : paths.activate,
        method: 'POST',
        body: file,
      }),
      extraOptions: { fallback: offlineActivationMessages.activateFailed },
      invalidatesTags: ['License'],
    }),
    uploadOfflineDeactivationProof: build.mutation<OfflineDeactivationResult, Upload>({
      query: ({ as, file }) => ({
        url: as === 'admin' ? paths.adminDeactivate : paths.deactivate,
        method: 'POST',
        body: file,
      }),
      extraOptions: { fallback: offlineActivationMessages.deactivateFailed },
      invalidatesTags: ['License'],
    }),
  }),
});

export const { useUploadOfflineActivationRequestMutation, useUploadOfflineDeactivationProofMutation } =
  offlineActivationApi;
