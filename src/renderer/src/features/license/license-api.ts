import type {
  ActivateBaseLicenseRequest,
  ActivateLicenseRequest,
  ActivationResult,
  FeatureUsage,
  License,
  LicenseStatusAnswer,
  Release,
  TrackUsageRequest,
} from '../../../../shared/api/licenses';
import type { Plan } from '../../../../shared/api/plans';
import { apiPaths, pathWith } from '../../../../shared/routes';
import type { HttpClient } from '../../lib/api-client';

const licensePath = (path: string, id: string) => pathWith(path, { id });

export async function listLicenses(http: HttpClient): Promise<License[]> {
  return (await http.get<License[]>(apiPaths.licenses.list)).data;
}

export async function getLicense(http: HttpClient, id: string): Promise<License> {
  return (await http.get<License>(licensePath(apiPaths.licenses.detail, id))).data;
}

export async function postActivation(
  http: HttpClient,
  body: ActivateLicenseRequest,
): Promise<ActivationResult> {
  return (await http.post<ActivationResult>(apiPaths.licenses.activate, body)).data;
}

/** The raw answer: base activation checks its shape itself ('Invalid response format from server'). */
export async function postBaseActivation(
  http: HttpClient,
  body: ActivateBaseLicenseRequest,
): Promise<unknown> {
  return (await http.post<unknown>(apiPaths.licenses.activateBase, body)).data;
}

export async function postValidation(
  http: HttpClient,
  body: { license_key: string; hardware_id: string },
): Promise<LicenseStatusAnswer> {
  return (await http.post<LicenseStatusAnswer>(apiPaths.licenses.validate, body)).data;
}

export async function postDeactivation(
  http: HttpClient,
  id: string,
  body: { hardware_id?: string; activation_id?: string },
): Promise<License> {
  return (await http.post<License>(licensePath(apiPaths.licenses.deactivate, id), body)).data;
}

export interface LicenseUsage {
  license_id: string;
  usage_info: { features: FeatureUsage[] };
  history: { date: string; feature_id: string; key: string; amount: number }[];
}

export async function getUsage(http: HttpClient, id: string, days?: number): Promise<LicenseUsage> {
  return (await http.get<LicenseUsage>(licensePath(apiPaths.licenses.usage, id), { params: { days } })).data;
}

export interface TrackUsageResult {
  license_id: string;
  recorded: number;
  feature: FeatureUsage;
}

export async function postUsage(
  http: HttpClient,
  id: string,
  body: TrackUsageRequest,
): Promise<TrackUsageResult> {
  return (await http.post<TrackUsageResult>(licensePath(apiPaths.licenses.usage, id), body)).data;
}

export async function getFeatures(http: HttpClient, id: string): Promise<FeatureUsage[]> {
  return (await http.get<{ features: FeatureUsage[] }>(licensePath(apiPaths.licenses.features, id))).data
    .features;
}

export async function getFeature(http: HttpClient, id: string, featureId: string): Promise<FeatureUsage> {
  return (await http.get<FeatureUsage>(pathWith(apiPaths.licenses.feature, { id, featureId }))).data;
}

export async function postPlanActivation(
  http: HttpClient,
  body: { planId: string; userInfo?: Record<string, unknown> },
): Promise<License> {
  return (await http.post<License>(apiPaths.licenses.activatePlan, { userInfo: {}, ...body })).data;
}

/** `GET /licenses/current-plan` answers the plan and the licence that gives it (either may be null). */
export interface CurrentPlan {
  plan: Plan | null;
  license: License | null;
}

export async function getCurrentPlan(http: HttpClient): Promise<CurrentPlan> {
  return (await http.get<CurrentPlan>(apiPaths.licenses.currentPlan)).data;
}

export async function putPlan(http: HttpClient, id: string, planId: string): Promise<License> {
  return (await http.put<License>(licensePath(apiPaths.licenses.plan, id), { planId })).data;
}

export async function getDownloads(
  http: HttpClient,
  id: string,
): Promise<{ license_id: string; releases: Release[] }> {
  return (
    await http.get<{ license_id: string; releases: Release[] }>(licensePath(apiPaths.licenses.download, id))
  ).data;
}

/** GET /licensing/status with the stored key and this machine's id. */
export async function getLicensingStatus(
  http: HttpClient,
  query: { license_key: string; hardware_id: string },
): Promise<LicenseStatusAnswer> {
  return (await http.get<LicenseStatusAnswer>(apiPaths.licensing.status, { params: query })).data;
}
