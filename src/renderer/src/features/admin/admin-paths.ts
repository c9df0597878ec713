import { apiPaths } from '../../../../shared/routes';

/** The admin calls, under the names the admin thunks use; every path comes from src/shared/routes.ts. */
export const adminPaths = {
  dashboard: apiPaths.admin.dashboard,
  users: apiPaths.admin.users,
  user: apiPaths.admin.user,
  licenses: apiPaths.admin.licenses,
  license: apiPaths.admin.license,
  revokeLicense: apiPaths.admin.revokeLicense,
  licenseActivations: apiPaths.admin.licenseActivations,
  deactivateActivation: apiPaths.admin.deactivateActivation,
  payments: apiPaths.payments.adminList,
  payment: apiPaths.payments.adminDetail,
  securityEvents: apiPaths.admin.securityEvents,
  securityEvent: apiPaths.admin.securityEvent,
  features: apiPaths.admin.features,
  feature: apiPaths.admin.feature,
  featureStats: apiPaths.admin.featureStats,
} as const;
