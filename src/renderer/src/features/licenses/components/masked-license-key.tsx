import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Code, CopyButton, Group, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { maskLicenseKey } from '../../../../../shared/license-key';
import { CheckIcon, CopyIcon, EyeIcon, EyeOffIcon } from '../../../components/brand/icons';
import { LicenseKeyText } from '../../../components/data/license-key-text';

export interface MaskedLicenseKeyProps {
  licenseKey: string;
  /** Start revealed (the key was just shown to its owner anyway). */
  initiallyRevealed?: boolean;
}

/**
 * A license key shown masked (first and last group), with a toggle to reveal it and a button
 * that copies the whole key whether it is revealed or not.
 */
export function MaskedLicenseKey({ licenseKey, initiallyRevealed = false }: MaskedLicenseKeyProps) {
  const { t } = useLingui();
  const [revealed, setRevealed] = useState(initiallyRevealed);
  return (
    <Group gap={4} wrap="nowrap" align="center" miw={0}>
      <Code fz="sm" py={4} px={8} style={{ whiteSpace: 'normal' }} data-testid="license-key">
        <LicenseKeyText value={revealed ? licenseKey : maskLicenseKey(licenseKey)} />
      </Code>
      <Tooltip label={revealed ? t`Hide key` : t`Show key`} withArrow>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          onClick={() => setRevealed((value) => !value)}
          aria-label={revealed ? t`Hide key` : t`Show key`}
          aria-pressed={revealed}
        >
          {revealed ? <EyeOffIcon size={18} /> : <EyeIcon size={18} />}
        </ActionIcon>
      </Tooltip>
      <CopyButton value={licenseKey} timeout={2000}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t`Copied` : t`Copy key`} withArrow>
            <ActionIcon
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              size="lg"
              onClick={copy}
              aria-label={copied ? t`Key copied` : t`Copy key`}
            >
              {copied ? <CheckIcon size={18} /> : <CopyIcon size={18} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
