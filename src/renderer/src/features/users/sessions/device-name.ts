import { useLingui } from '@lingui/react/macro';
import { UNKNOWN_BROWSER, UNKNOWN_DEVICE, deviceParts } from '../../../../../shared/device-names';

/**
 * A session's device as the server names it in English ("Chrome on Linux", "Unknown browser"),
 * shown in the language shown; the names of browsers and systems are kept as they are.
 */
export function useDeviceName(): (device: string) => string {
  const { t } = useLingui();
  return (device) => {
    const { browser, system } = deviceParts(device);
    const named =
      browser === UNKNOWN_BROWSER
        ? t`Unknown browser`
        : browser === UNKNOWN_DEVICE
          ? t`Unknown device`
          : browser;
    return system ? t`${named} on ${system}` : named;
  };
}
