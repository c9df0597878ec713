import type { ReleaseChannel } from '../../../src/shared/api/distribution';
import type { DesktopBridge, UpdateState } from '../../../src/shared/bridge';

type UpdateMethods = Pick<
  DesktopBridge,
  | 'getUpdateState'
  | 'onUpdateStateChange'
  | 'checkForUpdates'
  | 'installUpdate'
  | 'getUpdateChannel'
  | 'setUpdateChannel'
>;

/**
 * The update half of a desktop bridge, kept in memory: main's update service as the page sees it.
 * `push` plays main sending a new state; the lists record what the page asked for.
 */
export function fakeUpdateBridge(initial: UpdateState = { status: 'idle', checked_at: null }) {
  let state = initial;
  let channel: ReleaseChannel = 'stable';
  const listeners = new Set<(state: UpdateState) => void>();
  const calls = { checks: 0, installs: 0, channels: [] as ReleaseChannel[] };
  const push = (next: UpdateState) => {
    state = next;
    for (const listener of listeners) listener(next);
  };
  const bridge: UpdateMethods = {
    getUpdateState: async () => state,
    onUpdateStateChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async checkForUpdates() {
      calls.checks += 1;
      return state;
    },
    async installUpdate() {
      calls.installs += 1;
      return state.status === 'downloaded';
    },
    getUpdateChannel: async () => channel,
    async setUpdateChannel(next) {
      calls.channels.push(next);
      channel = next;
      return next;
    },
  };
  return { bridge, push, calls, listeners };
}
