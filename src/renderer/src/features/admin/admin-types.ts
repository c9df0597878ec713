import type {
  AdminLicense as AdminLicenseRow,
  AdminUser,
  AdminUserDetail,
  DashboardStats,
  SecurityEvent,
} from '../../../../shared/api/admin';
import type { Feature } from '../../../../shared/api/features';
import type { Paged } from '../../../../shared/api/paging';
import type { AdminPayment } from '../../../../shared/api/payments';
import type { AsyncStatus } from '../../lib/create-app-thunk';

/** Payments and security events have no shared schema yet: their fields are read as the server sends them. */
export type AdminRecord = Record<string, unknown> & { id?: string };
/** A license with its owner's e-mail; the detail view attaches its activations. */
export type AdminLicense = AdminLicenseRow;

export type { ListParams } from '../../components/data-table/list-query';

/** The admin slice: a page of each list, the selected items and the dashboard's numbers. */
export interface AdminState {
  users: Paged<AdminUser>;
  licenses: Paged<AdminLicense>;
  payments: Paged<AdminPayment>;
  securityEvents: Paged<SecurityEvent>;
  features: Paged<Feature>;
  systemStats: DashboardStats | null;
  selectedUser: AdminUserDetail | null;
  selectedLicense: AdminLicense | null;
  selectedPayment: AdminPayment | null;
  selectedFeature: Feature | null;
  status: AsyncStatus;
  error: string | null;
}

export type AdminCollection = 'users' | 'licenses' | 'payments' | 'securityEvents' | 'features';
