import { Alert, DataList, Drawer, Skeleton, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { AlertIcon } from '../brand/icons';

export interface DetailDrawerProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** The close button's accessible name ("Close payment details"). */
  closeLabel?: string;
  size: 'lg' | 'xl';
  /** Below this width (a media query) the drawer takes the whole screen. */
  fullScreen?: string;
  /** The item could not be loaded: why (the alert's title), with `errorHint` under it. */
  error?: string | null;
  /** What a failed load may mean ("It may have been removed, or the link is wrong."). */
  errorHint?: ReactNode;
  /** The item is on its way: the skeleton's accessible name ("Loading the payment"). */
  loading?: string | false;
  children?: ReactNode;
}

/**
 * One item beside its list: a drawer from the right with the item's title, a skeleton while it
 * loads, or the reason it could not be loaded.
 */
export function DetailDrawer({
  opened,
  onClose,
  title,
  closeLabel,
  size,
  fullScreen,
  error,
  errorHint,
  loading,
  children,
}: DetailDrawerProps) {
  const narrow = useMediaQuery(fullScreen ?? '(max-width: 0px)');
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={fullScreen && narrow ? '100%' : size}
      title={title}
      closeButtonProps={closeLabel ? { 'aria-label': closeLabel } : undefined}
      // A wide table inside scrolls in its own box; it must not widen the drawer past the screen.
      styles={{ content: { minWidth: 0 } }}
    >
      {error ? (
        <Alert color="red" icon={<AlertIcon />} title={error} role="alert">
          {errorHint}
        </Alert>
      ) : loading ? (
        <Stack gap="sm" aria-busy="true" aria-label={loading}>
          {Array.from({ length: 8 }, (_, index) => (
            <Skeleton key={index} height={16} />
          ))}
        </Stack>
      ) : (
        children
      )}
    </Drawer>
  );
}

/** One labelled value of a drawer's fact list. */
export function DrawerField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel>{label}</DataList.ItemLabel>
      <DataList.ItemValue style={{ minWidth: 0, overflowWrap: 'anywhere' }}>{children}</DataList.ItemValue>
    </DataList.Item>
  );
}

/** A value the item does not have. */
export const NoValue = () => (
  <Text span c="dimmed" size="sm">
    —
  </Text>
);
