import type {
  RecoveryCodes,
  SecuritySettings,
  StepUpRequest,
  StepUpResponse,
  TotpEnrolment,
  TwoFactorStatus,
} from '../../../../../shared/api/two-factor';
import { authApiPaths } from '../../../../../shared/routes';
import { accountSecurityApiPaths, adminApiPaths } from '../../../../../shared/api-paths';
import { api } from '../../../lib/api';
import { recordEndpointArea } from '../../../lib/api-actions';

// The fallbacks when the server gives no message.
export const twoFactorMessages = {
  statusFailed: 'Could not load your two-factor settings',
  startFailed: 'Could not start setting up the authenticator app',
  confirmFailed: 'Could not confirm the authenticator app',
  disableFailed: 'Could not remove the authenticator app',
  regenerateFailed: 'Could not make new recovery codes',
  stepUpFailed: 'Could not confirm it is you',
  settingsFailed: 'Could not load the security settings',
  saveSettingsFailed: 'Could not save the security settings',
} as const;

/** The signed-in account's authenticator app and recovery codes, and step-up. */
export const twoFactorApi = api.enhanceEndpoints({ addTagTypes: ['TwoFactor'] }).injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      getTwoFactorStatus: build.query<TwoFactorStatus, void>({
        query: () => ({ url: accountSecurityApiPaths.twoFactor }),
        extraOptions: { fallback: twoFactorMessages.statusFailed },
        providesTags: ['TwoFactor'],
      }),
      /** POST …/totp: a new secret, its otpauth URI and QR code, waiting for a first code. */
      startTotpEnrolment: build.mutation<TotpEnrolment, void>({
        query: () => ({ url: accountSecurityApiPaths.totp, method: 'POST', body: {} }),
        extraOptions: { fallback: twoFactorMessages.startFailed },
        invalidatesTags: ['TwoFactor'],
      }),
      /** POST …/totp/confirm: answers the ten recovery codes, shown once. */
      confirmTotp: build.mutation<string[], string>({
        query: (code) => ({ url: accountSecurityApiPaths.totpConfirm, method: 'POST', body: { code } }),
        transformResponse: (answer: RecoveryCodes) => answer.recovery_codes,
        extraOptions: { fallback: twoFactorMessages.confirmFailed },
        invalidatesTags: ['TwoFactor'],
      }),
      disableTotp: build.mutation<string, { code: string } | { recovery_code: string }>({
        query: (body) => ({ url: accountSecurityApiPaths.totp, method: 'DELETE', body }),
        transformResponse: (answer: { message?: string }) =>
          answer.message ?? 'The authenticator app was removed.',
        extraOptions: { fallback: twoFactorMessages.disableFailed },
        invalidatesTags: ['TwoFactor'],
      }),
      regenerateRecoveryCodes: build.mutation<string[], void>({
        query: () => ({ url: accountSecurityApiPaths.recoveryCodes, method: 'POST', body: {} }),
        transformResponse: (answer: RecoveryCodes) => answer.recovery_codes,
        extraOptions: { fallback: twoFactorMessages.regenerateFailed },
        invalidatesTags: ['TwoFactor'],
      }),
      /** POST /auth/step-up: a fresh proof, after which sensitive changes go through for a while. */
      stepUp: build.mutation<StepUpResponse, StepUpRequest>({
        query: (body) => ({ url: authApiPaths.stepUp, method: 'POST', body }),
        extraOptions: { fallback: twoFactorMessages.stepUpFailed },
      }),
      /** GET /admin/settings/security (administrators): whether administrators must use two-factor. */
      getSecuritySettings: build.query<SecuritySettings, void>({
        query: () => ({ url: adminApiPaths.securitySettings }),
        extraOptions: { fallback: twoFactorMessages.settingsFailed },
        providesTags: ['TwoFactor'],
      }),
      updateSecuritySettings: build.mutation<SecuritySettings, SecuritySettings>({
        query: (body) => ({ url: adminApiPaths.securitySettings, method: 'PUT', body }),
        extraOptions: { fallback: twoFactorMessages.saveSettingsFailed },
        invalidatesTags: ['TwoFactor'],
      }),
    };
    // Only this module's names: `twoFactorApi.endpoints` also lists what other features injected.
    recordEndpointArea('twoFactor', Object.keys(endpoints));
    return endpoints;
  },
});

export const {
  useGetTwoFactorStatusQuery,
  useStartTotpEnrolmentMutation,
  useConfirmTotpMutation,
  useDisableTotpMutation,
  useRegenerateRecoveryCodesMutation,
  useStepUpMutation,
  useGetSecuritySettingsQuery,
  useUpdateSecuritySettingsMutation,
} = twoFactorApi;
