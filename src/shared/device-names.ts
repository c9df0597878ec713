/**
 * How the server names the device behind a session or a sign-in: "Chrome on Linux", or a stand-in
 * when the user agent says nothing. One English name is kept (the audit log, the sign-in sources);
 * the portal and the mail show it in their language through `deviceParts`, keeping the names of
 * browsers and systems as they are.
 */
export const UNKNOWN_DEVICE = 'Unknown device';
export const UNKNOWN_BROWSER = 'Unknown browser';

export const deviceName = (browser: string, system: string | undefined): string =>
  system ? `${browser} on ${system}` : browser;

/** A device's name taken apart again: its browser (or a stand-in) and its system, when named. */
export function deviceParts(device: string): { browser: string; system?: string } {
  const [, browser = device, system] = /^(.*?)(?: on (.+))?$/.exec(device) ?? [];
  return system ? { browser, system } : { browser };
}
