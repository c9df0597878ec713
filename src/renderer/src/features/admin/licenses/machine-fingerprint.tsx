import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Code, Collapse, List, Stack, Text } from '@mantine/core';
import { useId, useState } from 'react';
import type { AdminActivation } from '../../../../../shared/api/admin';
import { FINGERPRINT_COMPONENTS, type FingerprintComponent } from '../../../../../shared/fingerprint';
import { formattingLocale } from '../../../lib/i18n/portal-i18n';
import { formatDateTime } from '../../licenses';

/** The components' names for people, in the order the app sends them. */
export const COMPONENT_NAMES: Record<FingerprintComponent, MessageDescriptor> = {
  machine_id: msg`Machine id`,
  cpu: msg`Processor`,
  disk: msg`Disk`,
  board: msg`Board`,
  os_install: msg`OS install`,
};

/** The same names inside a sentence, after the first ("Disk and board changed"). */
const COMPONENT_NAMES_IN_TEXT: Record<FingerprintComponent, MessageDescriptor> = {
  machine_id: msg`machine id`,
  cpu: msg`processor`,
  disk: msg`disk`,
  board: msg`board`,
  os_install: msg`OS install`,
};

/**
 * "Disk and board changed · 3 of 5 matched": one entry of a machine's component history, in the
 * language shown (the names joined as the language lists them).
 */
export const changeText = (change: AdminActivation['component_changes'][number], i18n: I18n) => {
  const list = new Intl.ListFormat(formattingLocale(), { type: 'conjunction' }).format(
    change.changed.map((name, index) =>
      i18n._(index === 0 ? COMPONENT_NAMES[name] : COMPONENT_NAMES_IN_TEXT[name]),
    ),
  );
  const matched = change.matched;
  const total = change.matched + change.changed.length;
  return i18n._(msg`${list} changed · ${matched} of ${total} matched`);
};

/**
 * A machine's fingerprint as administrators check it: the hashed components its app sent last
 * (the start of each hash; the whole on hover) and, newest first, when some changed while it kept
 * its seat. Folded behind a button, so a license with many machines stays short.
 */
export function MachineFingerprint({ activation, name }: { activation: AdminActivation; name: string }) {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState(false);
  const id = useId();
  const components = activation.components;
  const changes = activation.component_changes;
  const changeCount = changes.length;
  if (!components && changes.length === 0)
    return (
      <Text size="xs" c="dimmed">
        <Trans>No fingerprint components: its app sends none.</Trans>
      </Text>
    );
  return (
    <div>
      <Button
        variant="subtle"
        size="compact-xs"
        px={0}
        aria-expanded={open}
        aria-controls={id}
        aria-label={open ? t`Hide the fingerprint of ${name}` : t`Show the fingerprint of ${name}`}
        onClick={() => setOpen((shown) => !shown)}
      >
        {open
          ? t`Hide fingerprint`
          : changes.length === 0
            ? t`Fingerprint · no changes`
            : plural(changeCount, { one: 'Fingerprint · # change', other: 'Fingerprint · # changes' })}
      </Button>
      <Collapse expanded={open} id={id}>
        <Stack gap={6} pt={4}>
          {components && (
            <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '2px 12px' }}>
              {FINGERPRINT_COMPONENTS.map((component) => {
                const hash = components[component];
                return [
                  <Text key={`${component}-name`} component="dt" size="xs" c="dimmed">
                    {i18n._(COMPONENT_NAMES[component])}
                  </Text>,
                  <Text key={`${component}-hash`} component="dd" size="xs" m={0} miw={0}>
                    {hash ? (
                      <Code fz="xs" title={hash} style={{ overflowWrap: 'anywhere' }}>
                        {hash.slice(0, 16)}…
                      </Code>
                    ) : (
                      <Trans>not sent</Trans>
                    )}
                  </Text>,
                ];
              })}
            </dl>
          )}
          <Text size="xs" fw={600} component="h4" m={0}>
            <Trans>Changes while it kept its seat</Trans>
          </Text>
          {changes.length === 0 ? (
            <Text size="xs" c="dimmed">
              <Trans>None: its components are the ones it was activated with.</Trans>
            </Text>
          ) : (
            <List size="xs" spacing={2} aria-label={t`Component changes of ${name}`}>
              {changes.map((change) => (
                <List.Item key={`${change.changed_at}-${change.changed.join()}`}>
                  <time dateTime={change.changed_at}>{formatDateTime(change.changed_at)}</time>:{' '}
                  {changeText(change, i18n)}
                </List.Item>
              ))}
            </List>
          )}
        </Stack>
      </Collapse>
    </div>
  );
}
