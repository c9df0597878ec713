import { useLingui } from '@lingui/react/macro';
import { AppShell, Box, Burger, Group, NavLink, ScrollArea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { PRODUCT_NAME } from '../../../../shared/constants';
import { portalPaths } from '../../../../shared/routes';
import { Logo } from '../../components/brand/logo';
import { DotGrid } from '../../components/dot-grid/dot-grid';
import { SkipLink } from '../../components/layout/skip-link';
import { selectUserRole } from '../../features/auth';
import { loadUpdateIndicator } from '../../features/distribution';
import { loadDeletionBanner, selectUserProfile } from '../../features/users';
import { useAppSelector } from '../../lib/store-hooks';
import { HeaderLanguageSelect } from './header-language-select';
import { HeaderThemeToggle } from './header-theme-toggle';
import { adminNavItems, isActive, userNavItems } from './nav-links';
import { UserMenu } from './user-menu';
import classes from './app-layout.module.css';

const MAIN_ID = 'main-content';

const UpdateIndicator = lazy(() =>
  loadUpdateIndicator().then((module) => ({ default: module.UpdateIndicator })),
);

// Loaded only while the account waits to be deleted.
const DeletionBanner = lazy(loadDeletionBanner);

/** The signed-in shell: header with user menu, a navbar of the role's screens (a drawer on phones). */
export function AppShellLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  const isAdmin = useAppSelector(selectUserRole) === 'admin';
  const items = isAdmin ? adminNavItems : userNavItems;
  const deletionPending = Boolean(useAppSelector(selectUserProfile)?.deletion_due_at);
  const { i18n, t } = useLingui();

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 248, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding={{ base: 'md', sm: 'xl' }}
    >
      <DotGrid />
      <SkipLink target={MAIN_ID} />
      <AppShell.Header className={classes.header}>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? t`Close navigation` : t`Open navigation`}
              aria-expanded={opened}
              aria-controls="app-navigation"
            />
            <Link
              to={isAdmin ? portalPaths.admin : portalPaths.dashboard}
              className={classes.home}
              aria-label={t`${PRODUCT_NAME} home`}
            >
              <Logo />
            </Link>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Suspense fallback={null}>
              <UpdateIndicator />
            </Suspense>
            <Box visibleFrom="sm">
              <HeaderLanguageSelect />
            </Box>
            <HeaderThemeToggle />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar id="app-navigation" p="sm" className={classes.navbar} aria-label={t`Main`}>
        <AppShell.Section grow component={ScrollArea}>
          {items.map((item) => {
            const active = isActive(item, pathname);
            return (
              <NavLink
                key={item.to}
                component={Link}
                to={item.to}
                label={i18n._(item.label)}
                leftSection={<item.icon size={18} />}
                active={active}
                aria-current={active ? 'page' : undefined}
                onClick={close}
                className={classes.link}
              />
            );
          })}
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_ID} tabIndex={-1} className={classes.main}>
        {deletionPending ? (
          <Suspense fallback={null}>
            <DeletionBanner />
          </Suspense>
        ) : null}
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
