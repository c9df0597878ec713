import { useLingui } from '@lingui/react/macro';

/**
 * The server names a session's device in English, "Chrome on Linux" or "Unknown browser" (one
 * name for the portal, the mail and the audit log): shown here in the language shown, the names
 * of browsers and systems kept as they are.
 */
export function useDeviceName(): (device: string) => string {
  const { t } = useLingui();
  return (device) => {
    const [, browser = device, system] = /^(.*?)(?: on (.+))?$/.exec(device) ?? [];
    const named =
      browser === 'Unknown browser'
        ? t`Unknown browser`
        : browser === 'Unknown device'
          ? t`Unknown device`
          : browser;
    return system ? t`${named} on ${system}` : named;
  };
}
