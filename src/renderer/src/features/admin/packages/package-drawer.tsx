import { Alert, Button, Drawer, Group, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import type { Plan, UpdatePlanRequest } from '../../../../../shared/api/plans';
import { AlertIcon, TrashIcon } from '../../../components/brand/icons';
import { StatusBadge } from '../../../components/data/status-badge';
import { formatPlanPrice } from '../../../components/plans/plan-format';
import { ConfirmModal } from '../features/confirm-modal';
import { PackageDetailsForm } from './package-details-form';
import { PackageFeaturesEditor } from './package-features-editor';
import { packageState } from './package-format';
import { deletePackage, fetchPackage, updatePackage } from './packages-api';

export interface PackageDrawerProps {
  /** The package id in the URL, or null when closed. */
  id: string | null;
  /** The list's row of it, shown at once while the full record loads. */
  known: Plan | undefined;
  onClose: () => void;
  /** Something about the package changed: the list reloads. */
  onChanged: () => void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** One package: its features and limits edited in place, its details, and delete (or archive). */
export function PackageDrawer({ id, known, onClose, onChanged }: PackageDrawerProps) {
  const phone = useMediaQuery('(max-width: 48em)');
  const [loaded, setLoaded] = useState<{ id: string; plan?: Plan; error?: string } | null>(null);
  const [tab, setTab] = useState<string | null>('features');
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (!id) return;
    let live = true;
    setTab('features');
    fetchPackage(id).then(
      (plan) => live && setLoaded({ id, plan }),
      (error: unknown) => live && setLoaded({ id, error: messageOf(error) }),
    );
    return () => {
      live = false;
    };
  }, [id]);

  const fresh = loaded?.id === id ? loaded : null;
  // The full record wins over the list's row: it is what the editors start from.
  const plan = fresh?.plan;
  const shown = plan ?? known;
  const error = !shown ? fresh?.error : undefined;

  const saved = (updated: Plan) => {
    setLoaded({ id: updated.id, plan: updated });
    onChanged();
  };

  const saveDetails = async (body: UpdatePlanRequest) => {
    if (!plan) return;
    const updated = await updatePackage(plan.id, body);
    notifications.show({ color: 'teal', title: 'Package saved', message: `${updated.name} was updated.` });
    saved(updated);
  };

  const remove = async () => {
    if (!plan) return;
    const result = await deletePackage(plan.id);
    notifications.show({
      color: 'teal',
      title: result.outcome === 'deleted' ? 'Package deleted' : 'Package archived',
      message: result.message,
    });
    setConfirming(false);
    onChanged();
    if (result.outcome === 'deleted') onClose();
    else saved(await fetchPackage(plan.id));
  };

  const state = shown ? packageState(shown) : null;
  const price = shown ? formatPlanPrice(shown) : null;

  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size={phone ? '100%' : 'xl'}
      title={shown ? `Package ${shown.name}` : 'Package'}
      closeButtonProps={{ 'aria-label': 'Close package' }}
      // A wide table inside scrolls in its own box; it must not widen the drawer past the screen.
      styles={{ content: { minWidth: 0 } }}
    >
      {error ? (
        <Alert color="red" icon={<AlertIcon />} title={error} role="alert">
          The package could not be loaded. It may have been deleted, or the link is wrong.
        </Alert>
      ) : !shown || !state || !price ? (
        <Stack gap="sm" aria-busy="true" aria-label="Loading the package">
          {Array.from({ length: 8 }, (_, index) => (
            <Skeleton key={index} height={16} />
          ))}
        </Stack>
      ) : (
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
              {shown.is_public ? 'Public' : 'Hidden'}
            </StatusBadge>
            <Text size="sm" c="dimmed">
              {shown.max_activations} seat{shown.max_activations === 1 ? '' : 's'} · code {shown.code}
            </Text>
          </Group>

          <Tabs value={tab} onChange={setTab} keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="features">Features and limits</Tabs.Tab>
              <Tabs.Tab value="details">Details</Tabs.Tab>
            </Tabs.List>

            <Tabs.Panel value="features" pt="md">
              {plan ? (
                <PackageFeaturesEditor plan={plan} onSaved={saved} />
              ) : (
                <Skeleton height={160} aria-label="Loading the package’s features" />
              )}
            </Tabs.Panel>

            <Tabs.Panel value="details" pt="md">
              {plan ? (
                <Stack gap="xl">
                  <PackageDetailsForm
                    plan={plan}
                    submitLabel="Save details"
                    onSubmit={(body) => saveDetails(body as UpdatePlanRequest)}
                  />
                  <Stack gap="xs" component="section" aria-labelledby="package-remove-title">
                    <Title order={3} size="h5" id="package-remove-title">
                      Delete package
                    </Title>
                    <Text size="sm" c="dimmed">
                      A package no license was issued for is deleted. One with licenses is archived instead:
                      it is no longer sold and its licenses keep working.
                    </Text>
                    <Group>
                      <Button
                        variant="outline"
                        color="red"
                        leftSection={<TrashIcon size={16} />}
                        onClick={() => setConfirming(true)}
                      >
                        Delete package
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

      <ConfirmModal
        opened={confirming}
        title={shown ? `Delete package ${shown.name}?` : 'Delete package'}
        confirmLabel="Delete"
        onClose={() => setConfirming(false)}
        onConfirm={remove}
      >
        <Text size="sm">
          <strong>{shown?.name}</strong> is deleted if no license was ever issued for it. If licenses exist,
          it is archived instead: hidden from the purchase page and no longer sold, while its licenses keep
          working.
        </Text>
      </ConfirmModal>
    </Drawer>
  );
}
