import { apiPaths } from '../../../../shared/routes';

/**
 * Admin calls of SPEC §7 that src/shared/routes.ts does not name yet (the server has no routes for
 * them so far); the feature paths come from there.
 */
export const adminPaths = {
  dashboard: '/admin/dashboard',
  users: '/admin/users',
  user: '/admin/users/:id',
  licenses: '/admin/licenses',
  license: '/admin/licenses/:id',
  revokeLicense: '/admin/licenses/:id/revoke',
  licenseActivations: '/admin/licenses/:id/activations',
  payments: '/payments/admin/payments',
  payment: '/payments/admin/payments/:id',
  securityEvents: '/admin/security-events',
  features: apiPaths.admin.features,
  feature: apiPaths.admin.feature,
  featureStats: apiPaths.admin.featureStats,
} as const;
