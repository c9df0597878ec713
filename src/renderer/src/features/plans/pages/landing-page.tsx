import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Badge,
  Box,
  Button,
  Container,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { type ComponentType, memo } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { portalPaths } from '../../../../../shared/routes';
import {
  ArrowRightIcon,
  DownloadIcon,
  KeyIcon,
  OfflineIcon,
  ShieldIcon,
  SparkIcon,
} from '../../../components/brand/icons';
import { homeFor, selectIsAuthenticated, selectUserRole, withNext } from '../../auth';
import { useAppSelector } from '../../../lib/store-hooks';
import { LandingTrialOffer, TRIAL_PARAM, trialPlanOf } from '../components/landing-trial-offer';
import { PublicPlans, usePublicPlansRead } from '../components/public-plans';
import classes from './landing-page.module.css';

interface Highlight {
  icon: ComponentType<{ size?: number }>;
  title: MessageDescriptor;
  text: MessageDescriptor;
}

const HIGHLIGHTS: readonly Highlight[] = [
  {
    icon: SparkIcon,
    title: msg`Help where you work`,
    text: msg`Draft, summarize and rewrite in a native desktop app, one shortcut away from whatever you are doing.`,
  },
  {
    icon: OfflineIcon,
    title: msg`Keeps working offline`,
    text: msg`A signed license lease lets the app verify itself without a connection, so a flight or a flaky VPN is no problem.`,
  },
  {
    icon: KeyIcon,
    title: msg`Seats you control`,
    text: msg`Activate the app on your own machines up to your plan’s seats, and free a seat from this portal in one click.`,
  },
  {
    icon: ShieldIcon,
    title: msg`Private by default`,
    text: msg`Sessions are encrypted and time out after 30 minutes idle; every sign-in and license change is logged for you.`,
  },
];

/**
 * Where a customer's downloads are: the licenses screen sends `#downloads` on to its most relevant
 * license's installers (or, without a license, offers the free one that brings them).
 */
const DOWNLOADS = `${portalPaths.licenses}#downloads`;

/** A signed-in visitor's way back in, in place of "Sign in" and "Create account"; null for a visitor. */
function useSignedInHome(): { to: string; label: string; downloads: string } | null {
  const { t } = useLingui();
  const isAuthenticated = useAppSelector(selectIsAuthenticated);
  const role = useAppSelector(selectUserRole);
  if (!isAuthenticated) return null;
  const admin = role === 'admin';
  // Administrators have no downloads of their own.
  return {
    to: homeFor(role),
    label: admin ? t`Open admin` : t`Open dashboard`,
    downloads: admin ? homeFor(role) : DOWNLOADS,
  };
}

/**
 * The highlights, the same for every visitor: apart (and memoized) so that the plans' arrival from
 * the server, which renders the landing page again, leaves them as they are.
 */
const Highlights = memo(function Highlights() {
  const { t } = useLingui();
  return (
    <Container size="lg" pb={{ base: 48, sm: 80 }} component="section" aria-labelledby="highlights-title">
      <Title order={2} id="highlights-title" className={classes.visuallyHidden}>
        <Trans>What the assistant does</Trans>
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="lg">
        {HIGHLIGHTS.map((highlight) => (
          <Paper key={highlight.title.id} withBorder p="lg" className={classes.highlight}>
            <ThemeIcon size={40} radius="md" variant="light" mb="md">
              <highlight.icon size={22} />
            </ThemeIcon>
            <Title order={3} fz="md" mb={6}>
              {t(highlight.title)}
            </Title>
            <Text size="sm" c="dimmed">
              {t(highlight.text)}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
    </Container>
  );
});

/** The closing call to action; like the highlights, not rendered again when the plans arrive. */
const CallToAction = memo(function CallToAction() {
  const { t } = useLingui();
  const home = useSignedInHome();
  return (
    <Container size="lg" pb={{ base: 48, sm: 96 }}>
      <Box className={classes.cta} p={{ base: 'xl', sm: 48 }}>
        <Stack gap="md" align="center" ta="center">
          <Title order={2} c="white">
            <Trans>Ready when you are</Trans>
          </Title>
          <Text c="rgba(255, 255, 255, 0.9)" maw={520}>
            <Trans>Create an account, confirm your e-mail, and download the app for your machine.</Trans>
          </Text>
          <Group justify="center" gap="sm">
            <Button
              component={Link}
              to={home?.to ?? portalPaths.register}
              size="md"
              variant="white"
              rightSection={<ArrowRightIcon size={18} />}
            >
              {home?.label ?? t`Create account`}
            </Button>
            {home ? null : (
              <Button component={Link} to={portalPaths.login} size="md" variant="outline" color="white">
                <Trans>Sign in</Trans>
              </Button>
            )}
          </Group>
        </Stack>
      </Box>
    </Container>
  );
});

export default function LandingPage() {
  const { t } = useLingui();
  const home = useSignedInHome();
  const role = useAppSelector(selectUserRole);
  const plans = usePublicPlansRead();
  const [search] = useSearchParams();
  const trialPlan =
    plans.result.state === 'loaded' && plans.result.current
      ? trialPlanOf(plans.result.plans, search.get(TRIAL_PARAM))
      : null;
  return (
    <>
      <Container size="lg" pt={{ base: 48, sm: 96 }} pb={{ base: 48, sm: 80 }}>
        <Stack align="center" ta="center" gap="lg" maw={760} mx="auto">
          <Badge variant="light" size="lg" radius="xl" tt="none" fw={600}>
            <Trans>For Windows, macOS and Linux</Trans>
          </Badge>
          <Title order={1} className={classes.heroTitle}>
            <Trans>
              Your AI assistant, <span className={classes.accent}>right on your desktop</span>
            </Trans>
          </Title>
          <Text size="lg" c="dimmed" maw={620}>
            <Trans>
              Ask, write and automate without leaving the app you are in. Manage your licenses, devices and
              plan from one calm portal.
            </Trans>
          </Text>
          <Group justify="center" gap="sm" mt="sm">
            <Button
              component={Link}
              to={home?.downloads ?? withNext(portalPaths.login, DOWNLOADS)}
              size="lg"
              leftSection={<DownloadIcon size={20} />}
            >
              <Trans>Download the desktop app</Trans>
            </Button>
            <Button component={Link} to={home?.to ?? portalPaths.login} size="lg" variant="default">
              {home?.label ?? t`Sign in`}
            </Button>
          </Group>
          <Text size="sm" c="dimmed">
            <Trans>
              Downloads come with a license: create a free account to get the app and the base plan.
            </Trans>
          </Text>
          {trialPlan ? (
            <LandingTrialOffer
              plan={trialPlan}
              signedIn={home ? (role === 'admin' ? 'admin' : 'customer') : null}
            />
          ) : null}
        </Stack>
      </Container>

      <Highlights />

      <Container
        size="lg"
        pb={{ base: 48, sm: 96 }}
        component="section"
        aria-labelledby="plans-title"
        id="plans"
      >
        <Stack gap={6} align="center" ta="center" mb="xl">
          <Title order={2} id="plans-title">
            <Trans>Plans and pricing</Trans>
          </Title>
          <Text c="dimmed" maw={560}>
            <Trans>
              Start free and upgrade when you need more devices or higher limits. Prices include every update
              of the desktop app during your plan.
            </Trans>
          </Text>
        </Stack>
        <PublicPlans {...plans} />
      </Container>

      <CallToAction />
    </>
  );
}
