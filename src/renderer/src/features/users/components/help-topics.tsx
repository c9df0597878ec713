import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Accordion, Anchor, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { portalPaths } from '../../../../../shared/routes';
import { SectionCard } from '../../../components/layout/section-card';

interface Topic {
  id: string;
  title: MessageDescriptor;
  body: ReactNode;
}

/** A link inside an answer; the answers are `<Trans>` elements, translated when they render. */
function HelpLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Anchor component={Link} to={to} size="sm" underline="always">
      {children}
    </Anchor>
  );
}

const TOPICS: readonly Topic[] = [
  {
    id: 'activate',
    title: msg`Activate the app on a machine`,
    body: (
      <Trans>
        Sign in to the desktop app with this account, or open the{' '}
        <HelpLink to={portalPaths.licenses}>Licenses page</HelpLink> on the machine and activate one of your
        licenses there. Each machine takes one seat; your plan sets how many machines can use a license at the
        same time.
      </Trans>
    ),
  },
  {
    id: 'move',
    title: msg`Move a license to another machine`,
    body: (
      <Trans>
        Open the license on the <HelpLink to={portalPaths.licenses}>Licenses page</HelpLink>, deactivate the
        machine you no longer use to free its seat, then activate the new one. A machine that has not been
        seen for a long time gives up its seat by itself when another machine needs it.
      </Trans>
    ),
  },
  {
    id: 'offline',
    title: msg`Use the app offline`,
    body: (
      <Trans>
        After each online check the desktop app keeps a signed lease that lets it work without a connection
        for several days (a week unless your administrator chose otherwise). Connect before the lease ends and
        it renews by itself. A computer clock set back in time is refused.
      </Trans>
    ),
  },
  {
    id: 'buy',
    title: msg`Buy, renew or change a plan`,
    body: (
      <Trans>
        Plans are on the <HelpLink to={portalPaths.purchase}>Purchase page</HelpLink>. Buying a plan issues
        its license at once; buying the plan you already have adds one more billing period to your license.
        The free Base plan is activated from the Licenses page, once per account.
      </Trans>
    ),
  },
  {
    id: 'payments',
    title: msg`Payments, failed payments and receipts`,
    body: (
      <Trans>
        Every checkout is listed under Payment history on the{' '}
        <HelpLink to={portalPaths.purchase}>Purchase page</HelpLink> with a reference. A failed or abandoned
        checkout charges nothing. If money was taken but no license appeared, contact support with the
        reference.
      </Trans>
    ),
  },
  {
    id: 'sign-in',
    title: msg`Forgotten password or locked out`,
    body: (
      <Trans>
        Sign out and use “Forgot password?” on the sign-in page: the link we e-mail works once and expires
        after an hour. Five wrong passwords lock sign-in from that network for 15 minutes; a password reset
        lifts the lock. Changing the password signs out every device.
      </Trans>
    ),
  },
  {
    id: 'revoked',
    title: msg`A license was suspended or revoked`,
    body: (
      <Trans>
        The license’s page shows the reason an administrator gave. A suspended license can be resumed; a
        revoked one cannot. Contact support if you think either was a mistake.
      </Trans>
    ),
  },
];

/** Answers to the questions support hears most, one open at a time. */
export function HelpTopics() {
  const { t, i18n } = useLingui();
  return (
    <SectionCard
      headingId="help-topics-title"
      title={t`Help topics`}
      description={t`Quick answers about licenses, machines, payments and your account.`}
      gap="sm"
    >
      <Accordion order={3} variant="separated" radius="md">
        {TOPICS.map((topic) => (
          <Accordion.Item key={topic.id} value={topic.id}>
            <Accordion.Control>
              <Text size="sm" fw={600} span>
                {i18n._(topic.title)}
              </Text>
            </Accordion.Control>
            <Accordion.Panel>
              <Text size="sm">{topic.body}</Text>
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </SectionCard>
  );
}
