import { Trans, useLingui } from '@lingui/react/macro';
import { Avatar, Badge, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import { portalPaths } from '../../../../shared/routes';
import { ChevronDownIcon, LogoutIcon, ShieldIcon, UserIcon } from '../../components/brand/icons';
import { selectCurrentUser, selectUserRole, signOut } from '../../features/auth';
import { useAppDispatch, useAppSelector } from '../../lib/store-hooks';
import classes from './user-menu.module.css';

/** Two letters for the avatar: from the name when there is one, else from the e-mail. */
export function initialsOf(name: string | null | undefined, email: string | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  const last = words.at(-1);
  if (first && last && words.length >= 2) return `${first[0]}${last[0]}`.toUpperCase();
  if (first) return first.slice(0, 2).toUpperCase();
  return (email ?? '?').slice(0, 2).toUpperCase();
}

/** Who is signed in, a way to the profile and signing out. */
export function UserMenu() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const user = useAppSelector(selectCurrentUser);
  const isAdmin = useAppSelector(selectUserRole) === 'admin';
  const { t } = useLingui();
  const name = user?.full_name || user?.email || t`Account`;

  const leave = async () => {
    // Logout ends in the signed-out state whether or not the server answered.
    await signOut(dispatch);
    void navigate(portalPaths.login, { replace: true });
  };

  return (
    <Menu position="bottom-end" width={240} shadow="md" withinPortal>
      <Menu.Target>
        {/* Named by its content, so the visible name is part of the accessible one (WCAG 2.5.3). */}
        <UnstyledButton className={classes.target}>
          <Group gap={8} wrap="nowrap">
            <Avatar color="iris" radius="xl" size={32} aria-hidden>
              {initialsOf(user?.full_name, user?.email)}
            </Avatar>
            <VisuallyHidden>
              <Trans>Account menu for</Trans>{' '}
            </VisuallyHidden>
            <Text size="sm" fw={500} visibleFrom="sm" maw={180} truncate>
              {name}
            </Text>
            <VisuallyHidden hiddenFrom="sm">{name}</VisuallyHidden>
            <ChevronDownIcon size={16} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate>
            {name}
          </Text>
          {user?.email && user.email !== name && (
            <Text size="xs" c="dimmed" truncate>
              {user.email}
            </Text>
          )}
          {isAdmin && (
            <Badge size="xs" mt={6} variant="light">
              <Trans>Administrator</Trans>
            </Badge>
          )}
        </Menu.Label>
        <Menu.Divider />
        {!isAdmin && (
          <Menu.Item component={Link} to={portalPaths.profile} leftSection={<UserIcon size={16} />}>
            <Trans>Profile and preferences</Trans>
          </Menu.Item>
        )}
        <Menu.Item component={Link} to={portalPaths.profileSecurity} leftSection={<ShieldIcon size={16} />}>
          <Trans>Security</Trans>
        </Menu.Item>
        <Menu.Item leftSection={<LogoutIcon size={16} />} onClick={() => void leave()}>
          <Trans>Sign out</Trans>
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
