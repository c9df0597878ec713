import type { Feature } from '../../../../shared/api/features';
import type { Activation, License } from '../../../../shared/api/licenses';
import type { Paged } from '../../../../shared/api/paging';
import type { UserProfile } from '../../../../shared/api/users';
import type { AsyncStatus } from '../../lib/create-app-thunk';

/** Payments and security events have no shared schema yet: their fields are read as the server sends them. */
export type AdminRecord = Record<string, unknown> & { id?: string };
export type AdminLicense = License & { activations?: Activation[] };

/** Query of every admin list (SPEC §7 "GET with query params"). */
export interface ListParams {
  page?: number;
  perPage?: number;
  search?: string;
  sort?: string;
  [filter: string]: string | number | boolean | undefined;
}

/** SPEC §3 admin state. */
export interface AdminState {
  users: Paged<UserProfile>;
  licenses: Paged<AdminLicense>;
  payments: Paged<AdminRecord>;
  securityEvents: Paged<AdminRecord>;
  features: Paged<Feature>;
  systemStats: AdminRecord | null;
  selectedUser: UserProfile | null;
  selectedLicense: AdminLicense | null;
  selectedPayment: AdminRecord | null;
  selectedFeature: Feature | null;
  status: AsyncStatus;
  error: string | null;
}

export type AdminCollection = 'users' | 'licenses' | 'payments' | 'securityEvents' | 'features';
