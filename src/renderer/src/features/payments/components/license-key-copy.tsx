import { useLingui } from '@lingui/react/macro';
import { Button, Code, CopyButton, Group } from '@mantine/core';
import { LicenseKeyText } from '../../../components/data/license-key-text';

/** A license key just bought, with a button that copies it: what a success panel shows of it. */
export function LicenseKeyCopy({ licenseKey }: { licenseKey: string }) {
  const { t } = useLingui();
  return (
    <Group gap="xs" wrap="wrap">
      <Code fz="sm" data-testid="purchased-license-key">
        <LicenseKeyText value={licenseKey} />
      </Code>
      <CopyButton value={licenseKey}>
        {({ copied, copy }) => (
          <Button variant="light" size="compact-sm" onClick={copy} aria-label={t`Copy the license key`}>
            {copied ? t`Copied` : t`Copy`}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
