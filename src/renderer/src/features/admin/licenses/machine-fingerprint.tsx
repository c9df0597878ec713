import { Button, Code, Collapse, List, Stack, Text } from '@mantine/core';
import { useId, useState } from 'react';
import type { AdminActivation } from '../../../../../shared/api/admin';
import { FINGERPRINT_COMPONENTS, type FingerprintComponent } from '../../../../../shared/fingerprint';
import { formatDateTime } from '../../licenses';

/** The components' names for people, in the order the app sends them. */
export const COMPONENT_NAMES: Record<FingerprintComponent, string> = {
  machine_id: 'Machine id',
  cpu: 'Processor',
  disk: 'Disk',
  board: 'Board',
  os_install: 'OS install',
};

const changesText = (count: number) =>
  count === 0 ? 'no changes' : `${count} change${count === 1 ? '' : 's'}`;

/** "Disk and board changed · 3 of 5 matched": one entry of a machine's component history. */
export const changeText = (change: AdminActivation['component_changes'][number]) => {
  const names = change.changed.map((name, index) =>
    index === 0 ? COMPONENT_NAMES[name] : COMPONENT_NAMES[name].toLowerCase(),
  );
  const list = names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `${list} changed · ${change.matched} of ${change.matched + change.changed.length} matched`;
};

/**
 * A machine's fingerprint as administrators check it: the hashed components its app sent last
 * (the start of each hash; the whole on hover) and, newest first, when some changed while it kept
 * its seat. Folded behind a button, so a license with many machines stays short.
 */
export function MachineFingerprint({ activation, name }: { activation: AdminActivation; name: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const components = activation.components;
  const changes = activation.component_changes;
  if (!components && changes.length === 0)
    return (
      <Text size="xs" c="dimmed">
        No fingerprint components: its app sends none.
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
        aria-label={`${open ? 'Hide' : 'Show'} the fingerprint of ${name}`}
        onClick={() => setOpen((shown) => !shown)}
      >
        {open ? 'Hide fingerprint' : `Fingerprint · ${changesText(changes.length)}`}
      </Button>
      <Collapse expanded={open} id={id}>
        <Stack gap={6} pt={4}>
          {components && (
            <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '2px 12px' }}>
              {FINGERPRINT_COMPONENTS.map((component) => {
                const hash = components[component];
                return [
                  <Text key={`${component}-name`} component="dt" size="xs" c="dimmed">
                    {COMPONENT_NAMES[component]}
                  </Text>,
                  <Text key={`${component}-hash`} component="dd" size="xs" m={0} miw={0}>
                    {hash ? (
                      <Code fz="xs" title={hash} style={{ overflowWrap: 'anywhere' }}>
                        {hash.slice(0, 16)}…
                      </Code>
                    ) : (
                      'not sent'
                    )}
                  </Text>,
                ];
              })}
            </dl>
          )}
          <Text size="xs" fw={600} component="h4" m={0}>
            Changes while it kept its seat
          </Text>
          {changes.length === 0 ? (
            <Text size="xs" c="dimmed">
              None: its components are the ones it was activated with.
            </Text>
          ) : (
            <List size="xs" spacing={2} aria-label={`Component changes of ${name}`}>
              {changes.map((change) => (
                <List.Item key={`${change.changed_at}-${change.changed.join()}`}>
                  <time dateTime={change.changed_at}>{formatDateTime(change.changed_at)}</time>:{' '}
                  {changeText(change)}
                </List.Item>
              ))}
            </List>
          )}
        </Stack>
      </Collapse>
    </div>
  );
}
