import type { FingerprintComponents } from '../../../../shared/fingerprint';
import type { Platform } from '../../lib/platform';

/** How an activation names this machine in the license's list of machines. */
export interface DeviceDescription {
  device_name: string;
  platform: string;
  app_version?: string;
  /** The desktop's hashed fingerprint components, so the server knows the machine after a part changes. */
  components?: FingerprintComponents;
}

const OS_NAMES: [RegExp, string][] = [
  [/windows|win32|win64/i, 'Windows'],
  [/iphone|ipad|ios/i, 'iOS'],
  [/mac ?os|macintosh|darwin/i, 'macOS'],
  [/android/i, 'Android'],
  [/cros/i, 'ChromeOS'],
  [/linux|x11/i, 'Linux'],
];

// Order matters: Edge and Opera say "Chrome" too, and Chrome says "Safari".
const BROWSER_NAMES: [RegExp, string][] = [
  [/edg\//i, 'Edge'],
  [/opr\/|opera/i, 'Opera'],
  [/firefox|fxios/i, 'Firefox'],
  [/chromium/i, 'Chromium'],
  [/chrome|crios/i, 'Chrome'],
  [/safari/i, 'Safari'],
];

const pick = (table: [RegExp, string][], text: string, fallback: string) =>
  table.find(([pattern]) => pattern.test(text))?.[1] ?? fallback;

/** "Windows", "macOS", "Linux" from a user agent or Node's `process.platform`. */
export const osName = (text: string) => pick(OS_NAMES, text, 'Unknown system');

/** "Firefox on Linux" for this browser. */
export function describeBrowser(userAgent: string): DeviceDescription {
  const os = osName(userAgent);
  return {
    device_name: `${pick(BROWSER_NAMES, userAgent, 'Web browser')} on ${os}`,
    platform: `Web (${os})`,
  };
}

/** This machine as the activation will name it: the desktop app's system and version, or this browser. */
export async function describeThisDevice(platform: Platform): Promise<DeviceDescription> {
  if (platform.kind === 'desktop') {
    const info = await platform.getAppInfo().catch(() => null);
    const os = osName(info?.platform ?? '');
    return {
      device_name: `Desktop app on ${os}`,
      platform: os,
      ...(info?.version ? { app_version: info.version } : {}),
      ...(info?.components ? { components: info.components } : {}),
    };
  }
  return describeBrowser(globalThis.navigator?.userAgent ?? '');
}
