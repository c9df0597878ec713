import { Group, Text } from '@mantine/core';
import { PRODUCT_NAME } from '../../../../shared/constants';

/** The product mark: a spark in a rounded square, in the brand gradient. */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="logo-gradient" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#5e6ceb" />
          <stop offset="1" stopColor="#9c36b5" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill="url(#logo-gradient)" />
      <path
        d="M16 6.5c.7 5.6 3.3 8.2 9 9-5.7.8-8.3 3.4-9 9-.7-5.6-3.3-8.2-9-9 5.7-.8 8.3-3.4 9-9Z"
        fill="#fff"
      />
    </svg>
  );
}

/** Mark plus product name, as the headers show it. */
export function Logo() {
  return (
    <Group gap={10} wrap="nowrap">
      <LogoMark />
      <Text component="span" fw={700} fz={{ base: 'sm', xs: 'md' }} lh={1.2} c="var(--mantine-color-bright)">
        {PRODUCT_NAME}
      </Text>
    </Group>
  );
}
