import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { cssVariablesResolver, theme } from '../theme';
import { NotificationsHost } from './notifications-host';
import type { AppStore } from './store';

/** Store, UI kit and notifications around the router. */
export function AppProviders({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
        <NotificationsHost />
        {children}
      </MantineProvider>
    </Provider>
  );
}
