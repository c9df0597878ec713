import type { License } from '../../../../shared/api/licenses';
import type { AppInfo, LicenseCheckResult } from '../../../../shared/bridge';
import { PRODUCT_NAME } from '../../../../shared/constants';

/** `7KQ2M-•••••-•••••-•••••-XY9Z4`: enough to tell keys apart, not enough to use one. */
export function maskLicenseKey(key: string): string {
  const groups = key.split('-');
  if (groups.length < 3)
    return key.length <= 8 ? '•'.repeat(key.length) : `${key.slice(0, 4)}…${key.slice(-4)}`;
  return groups
    .map((group, index) => (index === 0 || index === groups.length - 1 ? group : '•'.repeat(group.length)))
    .join('-');
}

const PLATFORM_NAMES: Record<string, string> = { win32: 'Windows', darwin: 'macOS', linux: 'Linux' };

/** The browser and OS as a person reads them ("Chrome 131 on Linux"), from the user agent. */
export function describeBrowser(userAgent: string): string {
  const browsers: [RegExp, string][] = [
    [/Edg\/(\d+)/, 'Edge'],
    [/OPR\/(\d+)/, 'Opera'],
    [/Firefox\/(\d+)/, 'Firefox'],
    [/Chrom(?:e|ium)\/(\d+)/, 'Chrome'],
    [/Version\/(\d+)[\d.]* .*Safari\//, 'Safari'],
  ];
  const systems: [RegExp, string][] = [
    [/Windows/, 'Windows'],
    [/iPhone|iPad/, 'iOS'],
    [/Mac OS X|Macintosh/, 'macOS'],
    [/Android/, 'Android'],
    [/CrOS/, 'ChromeOS'],
    [/Linux/, 'Linux'],
  ];
  const browser = browsers
    .map(([pattern, name]) => [pattern.exec(userAgent), name] as const)
    .find(([match]) => match);
  const system = systems.find(([pattern]) => pattern.test(userAgent))?.[1];
  const named = browser ? `${browser[1]} ${browser[0]?.[1] ?? ''}`.trim() : 'Unknown browser';
  return system ? `${named} on ${system}` : named;
}

/** The check's answer in words: "valid", or why not ("no license key on this browser"), then its message. */
function statusLine(status: LicenseCheckResult, kind: 'web' | 'desktop'): string {
  if (status.valid) return `valid: ${status.message}`;
  if (status.status === 'not_configured')
    return `no license key on this ${kind === 'desktop' ? 'computer' : 'browser'}`;
  return `${status.status.replaceAll('_', ' ')}: ${status.message}`;
}

export interface SupportDetailsInput {
  kind: 'web' | 'desktop';
  appInfo: AppInfo | null;
  serverVersion: string | null;
  userAgent: string;
  hardwareId: string | null;
  licenseKey: string | null;
  status: LicenseCheckResult | null;
  /** The account's licenses, once read (their plan and status are listed; never their keys). */
  licenses?: readonly Pick<License, 'status' | 'plan'>[] | null;
  user: { id: string; email: string } | null;
  now: Date;
}

/** The lines a support request needs, as label/value pairs (masked key; never a token). */
export function supportDetails(input: SupportDetailsInput): [label: string, value: string][] {
  const app =
    input.kind === 'desktop' && input.appInfo
      ? `${PRODUCT_NAME} desktop ${input.appInfo.version}`
      : `${PRODUCT_NAME} web portal${input.serverVersion ? ` ${input.serverVersion}` : ''}`;
  const platform =
    input.kind === 'desktop' && input.appInfo
      ? `${PLATFORM_NAMES[input.appInfo.platform] ?? input.appInfo.platform} (desktop app)`
      : describeBrowser(input.userAgent);
  const status = input.status ? statusLine(input.status, input.kind) : 'not checked';
  const lines: [string, string][] = [
    ['App', app],
    ['Platform', platform],
  ];
  if (input.kind === 'desktop' && input.appInfo) lines.push(['License server', input.appInfo.serverUrl]);
  lines.push(
    [input.kind === 'desktop' ? 'Hardware id' : 'Browser id', input.hardwareId ?? 'unknown'],
    ['User id', input.user?.id ?? 'unknown'],
    ['E-mail', input.user?.email ?? 'unknown'],
    ['License key', input.licenseKey ? maskLicenseKey(input.licenseKey) : 'none on this machine'],
    ['License status', status],
    [
      'Account licenses',
      !input.licenses
        ? 'unknown'
        : input.licenses.length === 0
          ? 'none'
          : input.licenses.map((license) => `${license.plan.name} (${license.status})`).join(', '),
    ],
    ['Time', input.now.toISOString()],
  );
  return lines;
}

export const formatDetails = (lines: [string, string][]): string =>
  lines.map(([label, value]) => `${label}: ${value}`).join('\n');
