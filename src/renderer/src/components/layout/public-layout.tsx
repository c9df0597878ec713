import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Box, Button, Container, Group, Text } from '@mantine/core';
import { lazy, type ReactNode, Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { PRODUCT_NAME } from '../../../../shared/constants';
import { API_DOCS_PATH, portalPaths } from '../../../../shared/routes';
import { useHydrated } from '../../lib/use-hydrated';
import { CopyrightYear } from './copyright-year';
import { Logo } from '../brand/logo';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { LanguageSelect } from './language-select';
import { SkipLink } from './skip-link';
import classes from './public-layout.module.css';

const MAIN_ID = 'main-content';

// Decoration behind the page: it arrives after the first screen's own code, not in the first download.
const DotGrid = lazy(() => import('../dot-grid/dot-grid').then(({ DotGrid }) => ({ default: DotGrid })));

interface PublicLayoutProps {
  /** A signed-in visitor's way back in (e.g. "Open dashboard"), shown instead of sign-in and registration. */
  home?: { to: string; label: string };
  /** The theme switch to show, when it is not the local one (a signed-in visitor's saves to the account). */
  themeToggle?: ReactNode;
  /** The language switch to show, when it is not the local one (a signed-in visitor's saves to the account). */
  languageSelect?: ReactNode;
}

/** Frame of the public pages: header with sign-in and registration, the page, a footer, dots behind. */
export function PublicLayout({ home, themeToggle, languageSelect }: PublicLayoutProps = {}) {
  const { t } = useLingui();
  // Phones have room for one button: the way to the other account page.
  const onLogin = useLocation().pathname === portalPaths.login;
  // The dots are drawn by script: a page rendered ahead of time is sent without them (their styles
  // come with their code), and they join once the page is hydrated.
  const running = useHydrated();
  return (
    <div className={classes.shell}>
      {running ? (
        <Suspense fallback={null}>
          <DotGrid />
        </Suspense>
      ) : null}
      <SkipLink target={MAIN_ID} />
      <header className={classes.header}>
        <Container size="lg" h="100%">
          <Group h="100%" justify="space-between" wrap="nowrap" gap="xs">
            <Anchor
              component={Link}
              to={portalPaths.landing}
              underline="never"
              aria-label={t`${PRODUCT_NAME} home`}
            >
              <Logo />
            </Anchor>
            <Group gap="xs" wrap="nowrap">
              {/* A phone's header has room for one button; its language switch is in the footer. */}
              <Box visibleFrom="xs">{languageSelect ?? <LanguageSelect />}</Box>
              {themeToggle ?? <ColorSchemeToggle />}
              {home ? (
                <Button component={Link} to={home.to}>
                  {home.label}
                </Button>
              ) : (
                <>
                  <Button
                    component={Link}
                    to={portalPaths.login}
                    variant="subtle"
                    px="sm"
                    visibleFrom={onLogin ? 'xs' : undefined}
                  >
                    <Trans>Sign in</Trans>
                  </Button>
                  <Button component={Link} to={portalPaths.register} visibleFrom={onLogin ? undefined : 'xs'}>
                    <Trans>Create account</Trans>
                  </Button>
                </>
              )}
            </Group>
          </Group>
        </Container>
      </header>
      <main id={MAIN_ID} tabIndex={-1} className={classes.main}>
        <Outlet />
      </main>
      <footer className={classes.footer}>
        <Container size="lg">
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed">
              © <CopyrightYear /> {PRODUCT_NAME}
            </Text>
            <Group gap="lg" component="nav" aria-label={t`Footer`}>
              {home ? (
                <Anchor component={Link} to={home.to} size="sm" c="dimmed">
                  {home.label}
                </Anchor>
              ) : (
                <>
                  <Anchor component={Link} to={portalPaths.login} size="sm" c="dimmed">
                    <Trans>Sign in</Trans>
                  </Anchor>
                  <Anchor component={Link} to={portalPaths.register} size="sm" c="dimmed">
                    <Trans>Create account</Trans>
                  </Anchor>
                </>
              )}
              <Anchor href={API_DOCS_PATH} size="sm" c="dimmed">
                <Trans>API reference</Trans>
              </Anchor>
              <Box hiddenFrom="xs">{languageSelect ?? <LanguageSelect size="xs" />}</Box>
            </Group>
          </Group>
        </Container>
      </footer>
    </div>
  );
}
