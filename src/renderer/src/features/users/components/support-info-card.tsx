import { useLingui } from '@lingui/react/macro';
import { Box, Button, CopyButton, Skeleton, Stack, Text } from '@mantine/core';
import { CheckIcon } from '../../../components/brand/icons';
import { SectionCard } from '../../../components/layout/section-card';

/**
 * The app and account details a support request needs, in one block with a copy button. The
 * license key is masked and no token is ever included. The block is the text support staff read,
 * so it stays in English in every language (`translate="no"`, which browsers' page translators
 * honour too); the card around it is translated.
 */
export function SupportInfoCard({ lines }: { lines: [string, string][] | null }) {
  const { t } = useLingui();
  const text = lines?.map(([label, value]) => `${label}: ${value}`).join('\n') ?? '';
  return (
    <SectionCard
      headingId="support-info-title"
      title={t`App and account information`}
      description={t`Paste this into a support request: it tells us which app, machine and license you mean.`}
      actions={
        <CopyButton value={text} timeout={2500}>
          {({ copied, copy }) => (
            <Button
              variant={copied ? 'light' : 'default'}
              color={copied ? 'teal' : undefined}
              leftSection={copied ? <CheckIcon size={16} /> : undefined}
              onClick={copy}
              disabled={!lines}
            >
              {copied ? t`Copied` : t`Copy details`}
            </Button>
          )}
        </CopyButton>
      }
    >
      {lines ? (
        <Box
          component="dl"
          m={0}
          p="md"
          data-testid="support-details"
          translate="no"
          lang="en"
          style={{
            display: 'grid',
            gridTemplateColumns: 'minmax(7rem, max-content) minmax(0, 1fr)',
            columnGap: 'var(--mantine-spacing-md)',
            rowGap: 6,
            borderRadius: 'var(--mantine-radius-md)',
            background: 'light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-7))',
            fontFamily: 'var(--mantine-font-family-monospace)',
            fontSize: 'var(--mantine-font-size-sm)',
          }}
        >
          {lines.map(([label, value]) => (
            <Box key={label} display="contents">
              <Text component="dt" size="sm" c="dimmed" ff="monospace">
                {label}
              </Text>
              <Text component="dd" size="sm" m={0} ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {value}
              </Text>
            </Box>
          ))}
        </Box>
      ) : (
        <Stack gap={8} aria-busy="true" aria-label={t`Loading the details`}>
          {Array.from({ length: 6 }, (_, index) => (
            <Skeleton key={index} height={14} width={`${90 - index * 8}%`} />
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}
