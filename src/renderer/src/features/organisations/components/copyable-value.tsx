import { useLingui } from '@lingui/react/macro';
import { Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';

/** A value to paste elsewhere (a TXT record, a SCIM URL or token), shown whole with a button that copies it. */
export function CopyableValue({
  label,
  value,
  onColour = false,
}: {
  label: string;
  value: string;
  /** On a coloured notice: the label takes the notice's text colour, which keeps its contrast. */
  onColour?: boolean;
}) {
  const { t } = useLingui();
  const what = label.toLowerCase();
  return (
    <Stack gap={4}>
      <Text size="xs" fw={600} c={onColour ? undefined : 'dimmed'}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code block style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {value}
        </Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button
              variant="light"
              size="xs"
              onClick={copy}
              color={copied ? 'teal' : undefined}
              aria-label={t`Copy the ${what}`}
            >
              {copied ? t`Copied` : t`Copy`}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
