import { plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Button,
  Checkbox,
  Code,
  Group,
  NumberInput,
  Pagination,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useMemo, useState } from 'react';
import type { Feature } from '../../../../../shared/api/features';
import { MAX_FEATURE_LIMIT, type Plan, updatePlanRequestSchema } from '../../../../../shared/api/plans';
import { AlertIcon } from '../../../components/brand/icons';
import { StatusBadge } from '../../../components/data/status-badge';
import { RetryAlert } from '../../../components/data-table/retry-alert';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { planMessages, useUpdatePlanMutation } from '../../plans';
import { useGetFeatureCatalogueQuery } from '../admin-endpoints';
import { KIND_LABELS, meteredUnit, PER_PERIOD } from '../features/feature-format';
import { knownText } from '../../../lib/i18n/portal-i18n';
import { formatNumber } from '../../licenses';
import { failureOf } from '../query-answer';

/** One row of the editor: whether the package includes the feature, and its limit ('' = unlimited). */
interface Entry {
  included: boolean;
  limit: number | '';
}
type Draft = Record<string, Entry>;

const ROWS_PER_PAGE = 25;

const draftOf = (plan: Plan): Draft =>
  Object.fromEntries(
    plan.features.map((feature) => [feature.feature_id, { included: true, limit: feature.limit ?? '' }]),
  );

const sameEntry = (a: Entry | undefined, b: Entry | undefined) =>
  (a?.included ?? false) === (b?.included ?? false) && (!a?.included || a.limit === b?.limit);

/** The package's feature list as PUT /plans/{id} takes it (on/off features carry no limit). */
function requestFeatures(draft: Draft, features: readonly Feature[]) {
  return features
    .filter((feature) => draft[feature.feature_id]?.included)
    .map((feature) => {
      const limit = draft[feature.feature_id]?.limit ?? '';
      return {
        feature_id: feature.feature_id,
        limit: feature.kind === 'metered' && limit !== '' ? limit : null,
      };
    });
}

/** Every feature of the catalogue, by name (the editor's rows). */
function useAllFeatures() {
  const answer = useGetFeatureCatalogueQuery();
  return {
    features: answer.data ?? null,
    error: failureOf(answer),
    retry: () => void answer.refetch(),
  };
}

export interface PackageFeaturesEditorProps {
  plan: Plan;
  onSaved: (plan: Plan) => void;
}

/**
 * Every feature of the catalogue with an "Included" box and, for metered ones, the limit: edited
 * in place and saved together with one "Save features" (PUT /plans/{id} with the whole list).
 */
export function PackageFeaturesEditor({ plan, onSaved }: PackageFeaturesEditorProps) {
  const { t, i18n } = useLingui();
  const catalogue = useAllFeatures();
  const [updatePackage] = useUpdatePlanMutation();
  const [draft, setDraft] = useState<Draft>(() => draftOf(plan));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [filter, setFilter] = useState('');
  const [onlyIncluded, setOnlyIncluded] = useState(false);
  const [page, setPage] = useState(1);

  // The saved package (or another one) is the new starting point.
  useEffect(() => {
    setDraft(draftOf(plan));
    setErrors({});
    setFailure(null);
  }, [plan]);

  const saved = useMemo(() => draftOf(plan), [plan]);
  // A feature of the package missing from the catalogue answer still shows (and can be removed).
  const features = useMemo(() => {
    const all = catalogue.features ?? [];
    const known = new Set(all.map((feature) => feature.feature_id));
    const extra = plan.features
      .filter((feature) => !known.has(feature.feature_id))
      .map((feature) => ({ ...feature, description: '', created_at: '', updated_at: '' }));
    return [...all, ...extra];
  }, [catalogue.features, plan.features]);

  const ids = new Set([...Object.keys(draft), ...Object.keys(saved)]);
  const changed = [...ids].filter((id) => !sameEntry(draft[id], saved[id])).length;
  const included = features.filter((feature) => draft[feature.feature_id]?.included).length;
  const includedCount = formatNumber(included);
  const total = features.length;
  const planName = plan.name;

  const visible = useMemo(() => {
    const text = filter.trim().toLowerCase();
    return features.filter(
      (feature) =>
        (!onlyIncluded || draft[feature.feature_id]?.included) &&
        (!text || feature.name.toLowerCase().includes(text) || feature.key.includes(text)),
    );
    // Left out of the inputs on purpose: in the "included only" view a row just unticked stays
    // (so it can be ticked again) until the filter changes.
  }, [features, filter, onlyIncluded]);
  const pages = Math.max(1, Math.ceil(visible.length / ROWS_PER_PAGE));
  const shown = visible.slice(
    (Math.min(page, pages) - 1) * ROWS_PER_PAGE,
    Math.min(page, pages) * ROWS_PER_PAGE,
  );

  const set = (feature: Feature, entry: Partial<Entry>) => {
    setDraft((current) => {
      const before = current[feature.feature_id] ?? { included: false, limit: '' };
      return { ...current, [feature.feature_id]: { ...before, ...entry } };
    });
    setErrors(({ [feature.feature_id]: _dropped, ...rest }) => rest);
  };

  const save = async () => {
    setFailure(null);
    const body = { features: requestFeatures(draft, features) };
    const checked = updatePlanRequestSchema.safeParse(body);
    if (!checked.success) {
      const found: Record<string, string> = {};
      for (const issue of checked.error.issues) {
        const index = issue.path[1];
        const id = typeof index === 'number' ? body.features[index]?.feature_id : undefined;
        if (id) found[id] ??= knownText(issue.message);
        else setFailure(knownText(issue.message));
      }
      setErrors(found);
      return;
    }
    setSaving(true);
    try {
      const updated = await updatePackage({ id: plan.id, body }).unwrap();
      const name = updated.name;
      const count = updated.features.length;
      notifications.show({
        color: 'teal',
        title: t`Features of ${name} saved`,
        message: plural(count, {
          one: '# feature included. Licenses of the package get the change at their next check.',
          other: '# features included. Licenses of the package get the change at their next check.',
        }),
      });
      onSaved(updated);
    } catch (error) {
      setFailure(toSubmitFailure(error, planMessages.savePlanFailed).message);
    } finally {
      setSaving(false);
    }
  };

  if (catalogue.error)
    return (
      <RetryAlert title={catalogue.error} onRetry={catalogue.retry}>
        <Trans>The feature catalog could not be loaded.</Trans>
      </RetryAlert>
    );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center" gap="sm">
        <Text size="sm" c="dimmed" aria-live="polite">
          {catalogue.features ? (
            <>
              <Trans>
                {includedCount} of{' '}
                <Plural value={total} one="# feature included" other="# features included" />
              </Trans>
              {changed > 0 ? (
                <>
                  {' · '}
                  <Plural value={changed} one="# unsaved change" other="# unsaved changes" />
                </>
              ) : null}
            </>
          ) : (
            <Trans>Loading the feature catalog…</Trans>
          )}
        </Text>
        <Group gap="sm">
          {changed > 0 ? (
            <Button variant="default" onClick={() => setDraft(draftOf(plan))} disabled={saving}>
              <Trans>Discard changes</Trans>
            </Button>
          ) : null}
          <Button
            onClick={() => void save()}
            loading={saving}
            disabled={changed === 0 || !catalogue.features}
          >
            <Trans>Save features</Trans>
          </Button>
        </Group>
      </Group>

      {failure ? (
        <Alert color="red" variant="light" icon={<AlertIcon />} title={t`Features not saved`} role="alert">
          {failure}
        </Alert>
      ) : null}

      {features.length > 10 ? (
        <Group gap="md" align="flex-end">
          <TextInput
            label={t`Filter features`}
            placeholder={t`Name or key`}
            type="search"
            value={filter}
            onChange={(event) => {
              setFilter(event.currentTarget.value);
              setPage(1);
            }}
            style={{ flex: '1 1 200px' }}
          />
          <Switch
            label={t`Included only`}
            checked={onlyIncluded}
            onChange={(event) => {
              setOnlyIncluded(event.currentTarget.checked);
              setPage(1);
            }}
            mb={8}
          />
        </Group>
      ) : null}

      <Table.ScrollContainer minWidth={480} type="native">
        <Table verticalSpacing="sm" aria-label={t`Features of ${planName}`} aria-busy={!catalogue.features}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th style={{ width: 90 }}>
                <Trans>Included</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Feature</Trans>
              </Table.Th>
              <Table.Th style={{ width: 220 }}>
                <Trans>Limit</Trans>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {!catalogue.features
              ? Array.from({ length: 4 }, (_, index) => (
                  <Table.Tr key={index} aria-hidden>
                    <Table.Td>
                      <Skeleton height={20} width={20} />
                    </Table.Td>
                    <Table.Td>
                      <Skeleton height={14} width="60%" />
                    </Table.Td>
                    <Table.Td>
                      <Skeleton height={30} />
                    </Table.Td>
                  </Table.Tr>
                ))
              : shown.map((feature) => {
                  const entry = draft[feature.feature_id];
                  const on = entry?.included ?? false;
                  const unit = meteredUnit(feature);
                  const dirty = !sameEntry(entry, saved[feature.feature_id]);
                  const featureName = feature.name;
                  const period = feature.period ? i18n._(PER_PERIOD[feature.period]) : '';
                  return (
                    <Table.Tr key={feature.feature_id} data-changed={dirty || undefined}>
                      <Table.Td>
                        <Checkbox
                          aria-label={t`Include ${featureName}`}
                          checked={on}
                          onChange={(event) => set(feature, { included: event.currentTarget.checked })}
                        />
                      </Table.Td>
                      <Table.Td>
                        <Group gap={6} wrap="wrap">
                          <Text size="sm" fw={600}>
                            {feature.name}
                          </Text>
                          <Code fz="xs">{feature.key}</Code>
                          {dirty ? (
                            <StatusBadge tone="caution" size="sm">
                              <Trans>Unsaved</Trans>
                            </StatusBadge>
                          ) : null}
                        </Group>
                        <Text size="xs" c="dimmed">
                          {i18n._(KIND_LABELS[feature.kind])}
                          {unit ? ` · ${unit}` : ''}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {feature.kind === 'metered' ? (
                          <NumberInput
                            size="sm"
                            aria-label={t`Limit for ${featureName}`}
                            placeholder={t`Unlimited`}
                            min={0}
                            max={MAX_FEATURE_LIMIT}
                            allowDecimal={false}
                            allowNegative={false}
                            thousandSeparator=","
                            disabled={!on}
                            value={entry?.limit ?? ''}
                            onChange={(value) =>
                              set(feature, { limit: typeof value === 'number' ? value : '' })
                            }
                            error={errors[feature.feature_id]}
                            rightSection={
                              <Text size="xs" c="dimmed" pr={8} style={{ whiteSpace: 'nowrap' }}>
                                {period}
                              </Text>
                            }
                            rightSectionWidth={64}
                          />
                        ) : (
                          <Text size="sm" c="dimmed">
                            {on ? <Trans>Included</Trans> : <Trans>Not included</Trans>}
                          </Text>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
            {catalogue.features && shown.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={3}>
                  <Text size="sm" c="dimmed" ta="center" py="md">
                    {features.length === 0 ? (
                      <Trans>The catalog has no features yet: create them on the Features page.</Trans>
                    ) : (
                      <Trans>No feature matches this filter.</Trans>
                    )}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>

      {pages > 1 ? (
        <Pagination
          size="sm"
          total={pages}
          value={Math.min(page, pages)}
          onChange={setPage}
          aria-label={t`Pages of features`}
          getControlProps={(control) =>
            control === 'previous'
              ? { 'aria-label': t`Previous features` }
              : control === 'next'
                ? { 'aria-label': t`More features` }
                : {}
          }
          getItemProps={(item) => ({ 'aria-label': t`Features page ${item}` })}
        />
      ) : null}

      <Text size="xs" c="dimmed">
        <Trans>
          Leave a limit empty for unlimited use. Limits count per period for every license of the package.
        </Trans>
      </Text>
    </Stack>
  );
}
