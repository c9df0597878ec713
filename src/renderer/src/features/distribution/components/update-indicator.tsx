import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { portalPaths } from '../../../../../shared/routes';
import { DownloadIcon, RefreshIcon } from '../../../components/brand/icons';
import { useGetDesktopUpdateStateQuery } from '../distribution-endpoints';
import { APP_UPDATES_SECTION_ID } from './desktop-updates-card';

/**
 * The header's quiet sign of the desktop app's update: nothing while there is nothing to say (and
 * never on the web), the download's progress, then "Update ready". It leads to the Profile page's
 * App updates section, where the release notes are read before restarting.
 */
export function UpdateIndicator() {
  const { t } = useLingui();
  const { data: state } = useGetDesktopUpdateStateQuery();
  const to = `${portalPaths.profile}#${APP_UPDATES_SECTION_ID}`;
  if (state?.status === 'available' || state?.status === 'downloading') {
    const percent = state.status === 'downloading' ? state.percent : 0;
    const version = state.version;
    return (
      <Button
        component={Link}
        to={to}
        variant="subtle"
        color="gray"
        size="compact-sm"
        leftSection={<DownloadIcon size={16} />}
        aria-label={t`Downloading version ${version}: ${percent} %`}
      >
        <Text span size="sm" visibleFrom="sm">
          {percent} %
        </Text>
      </Button>
    );
  }
  if (state?.status === 'downloaded') {
    const version = state.version;
    return (
      <Button
        component={Link}
        to={to}
        variant="light"
        size="compact-sm"
        leftSection={<RefreshIcon size={16} />}
        aria-label={t`Version ${version} is ready: see what is new and restart to update`}
      >
        <Text span size="sm" visibleFrom="sm">
          <Trans>Update ready</Trans>
        </Text>
      </Button>
    );
  }
  return null;
}
