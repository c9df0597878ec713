import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { useEffect, useState } from 'react';
import type { Plan, UpdatePlanRequest } from '../../../../../shared/api/plans';
import { TrashIcon } from '../../../components/brand/icons';
import { StatusBadge } from '../../../components/data/status-badge';
import { DetailDrawer } from '../../../components/drawer/detail-drawer';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { formatPlanPrice, useDeletePlanMutation, useGetPlanQuery, useUpdatePlanMutation } from '../../plans';
import { knownText } from '../../../lib/i18n/portal-i18n';
import { failureOf } from '../query-answer';
import { PackageDetailsForm } from './package-details-form';
import { PackageFeaturesEditor } from './package-features-editor';
import { machinesText, packageState } from './package-format';
import { PackagePublishPanel } from './package-publish-panel';

export interface PackageDrawerProps {
  /** The package id in the URL, or null when closed. */
  id: string | null;
  /** The list's row of it, shown at once while the full record loads. */
  known: Plan | undefined;
  onClose: () => void;
}

/** One package: its features and limits edited in place, its details, and delete (or archive). */
export function PackageDrawer({ id, known, onClose }: PackageDrawerProps) {
  const { t } = useLingui();
  const answer = useGetPlanQuery(id ?? skipToken);
  const [updatePackage] = useUpdatePlanMutation();
  const [deletePackage] = useDeletePlanMutation();
  const [tab, setTab] = useState<string | null>('features');
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (id) setTab('features');
  }, [id]);

  // The package as a save answered it, until the package read again is as new.
  const [latest, setLatest] = useState<Plan | null>(null);
  const read = answer.currentData;
  // The full record wins over the list's row: it is what the editors start from.
  const plan = latest && latest.id === id && (!read || latest.updated_at > read.updated_at) ? latest : read;
  const shown = plan ?? known;
  const error = !shown ? failureOf(answer) : null;

  // The saved package is what the editors start from at once (the list and the package are read again too).
  const saved = (updated: Plan) => setLatest(updated);

  const saveDetails = async (body: UpdatePlanRequest) => {
    if (!plan) return;
    const updated = await updatePackage({ id: plan.id, body }).unwrap();
    const name = updated.name;
    notifications.show({ color: 'teal', title: t`Package saved`, message: t`${name} was updated.` });
    saved(updated);
  };

  // An archived package is read again (the write makes every plan stale); a deleted one closes.
  const remove = async () => {
    if (!plan) return;
    const result = await deletePackage(plan.id).unwrap();
    notifications.show({
      color: 'teal',
      title: result.outcome === 'deleted' ? t`Package deleted` : t`Package archived`,
      message: knownText(result.message),
    });
    setConfirming(false);
    if (result.outcome === 'deleted') onClose();
  };

  const state = shown ? packageState(shown) : null;
  const price = shown ? formatPlanPrice(shown) : null;
  const name = shown?.name;
  const code = shown?.code;
  const machines = shown ? machinesText(shown) : '';

  return (
    <>
      <DetailDrawer
        opened={id !== null}
        onClose={onClose}
        size="xl"
        fullScreen="(max-width: 48em)"
        title={shown ? t`Package ${name}` : t`Package`}
        closeLabel={t`Close package`}
        error={error}
        errorHint={t`The package could not be loaded. It may have been deleted, or the link is wrong.`}
        loading={(!shown || !state || !price) && t`Loading the package`}
      >
        {shown && state && price && (
          <Stack gap="lg">
            <Group gap="sm" wrap="wrap">
              <Text fw={700} fz="lg">
                {price.amount}{' '}
                <Text span size="sm" c="dimmed" fw={500}>
                  {price.period}
                </Text>
              </Text>
              <StatusBadge tone={state.tone} size="md">
                {state.label}
              </StatusBadge>
              <StatusBadge tone={shown.is_public ? 'info' : 'neutral'} size="md">
                {shown.is_public ? <Trans>Public</Trans> : <Trans>Hidden</Trans>}
              </StatusBadge>
              <Text size="sm" c="dimmed">
                <Trans>
                  {machines} · code {code}
                </Trans>
              </Text>
            </Group>

            {plan ? <PackagePublishPanel plan={plan} onPublished={saved} /> : null}

            <Tabs value={tab} onChange={setTab} keepMounted={false}>
              <Tabs.List>
                <Tabs.Tab value="features">
                  <Trans>Features and limits</Trans>
                </Tabs.Tab>
                <Tabs.Tab value="details">
                  <Trans>Details</Trans>
                </Tabs.Tab>
              </Tabs.List>

              <Tabs.Panel value="features" pt="md">
                {plan ? (
                  <PackageFeaturesEditor plan={plan} onSaved={saved} />
                ) : (
                  <Skeleton height={160} aria-label={t`Loading the package’s features`} />
                )}
              </Tabs.Panel>

              <Tabs.Panel value="details" pt="md">
                {plan ? (
                  <Stack gap="xl">
                    <PackageDetailsForm
                      plan={plan}
                      submitLabel={t`Save details`}
                      onSubmit={(body) => saveDetails(body as UpdatePlanRequest)}
                    />
                    <Stack gap="xs" component="section" aria-labelledby="package-remove-title">
                      <Title order={3} size="h5" id="package-remove-title">
                        <Trans>Delete package</Trans>
                      </Title>
                      <Text size="sm" c="dimmed">
                        <Trans>
                          A package no license was issued for is deleted. One with licenses is archived
                          instead: it is no longer sold and its licenses keep working.
                        </Trans>
                      </Text>
                      <Group>
                        <Button
                          variant="outline"
                          color="red"
                          leftSection={<TrashIcon size={16} />}
                          onClick={() => setConfirming(true)}
                        >
                          <Trans>Delete package</Trans>
                        </Button>
                      </Group>
                    </Stack>
                  </Stack>
                ) : (
                  <Skeleton height={240} />
                )}
              </Tabs.Panel>
            </Tabs>
          </Stack>
        )}
      </DetailDrawer>
      <ConfirmDialog
        centered
        opened={confirming}
        title={shown ? t`Delete package ${name}?` : t`Delete package`}
        confirmLabel={t`Delete`}
        onClose={() => setConfirming(false)}
        onConfirm={remove}
      >
        <Text size="sm">
          <Trans>
            <strong>{name}</strong> is deleted if no license was ever issued for it. If licenses exist, it is
            archived instead: hidden from the purchase page and no longer sold, while its licenses keep
            working.
          </Trans>
        </Text>
      </ConfirmDialog>
    </>
  );
}
