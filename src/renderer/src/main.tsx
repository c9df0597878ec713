// Before any module builds a zod schema (see the file).
import './lib/zod-config';
// Mantine's base styles; each component's own come with the chunk that uses it (electron.vite.config.ts).
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppProviders } from './app/providers';
import { AppRoutes } from './app/router';
import { makeStore } from './app/store';
import { createServices } from './lib/services';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const services = createServices();
const store = makeStore({ services });

createRoot(container).render(
  <StrictMode>
    <AppProviders store={store}>
      <BrowserRouter>
        <AppRoutes services={services} />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
