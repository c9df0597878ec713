import { I18nProvider } from '@lingui/react';
import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { portalI18n } from '../lib/i18n/portal-i18n';
import { cssVariablesResolver, theme } from '../theme';
import { NotificationsHost } from './notifications-host';
import type { AppStore } from './store';

/** Store, language, UI kit and notifications around the router. */
export function AppProviders({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      <I18nProvider i18n={portalI18n}>
        <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
          <NotificationsHost />
          {children}
        </MantineProvider>
      </I18nProvider>
    </Provider>
  );
}
