// Before any module builds a zod schema (see the file).
import './lib/zod-config';
// Mantine's base styles; each component's own come with the chunk that uses it (electron.vite.config.ts).
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { PRERENDERED_ATTRIBUTE } from '../../shared/prerendered-page';
import { AppProviders } from './app/providers';
import { AppRoutes } from './app/router';
import { makeStore } from './app/store';
import { PrerenderedPlansContext, readPrerenderedPlans } from './features/plans/prerendered-plans';
import { browserLanguage, showLanguage } from './lib/i18n/portal-i18n';
import { onDesktop } from './lib/on-desktop';
import { createServices } from './lib/services';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const services = createServices();
const store = makeStore({ services });
// A public page the build rendered (scripts/prerender-public-pages.ts) is hydrated, unless its first
// script found a stored session and put the session gate's first screen there instead. The build
// rendered it for the web: under the desktop shell's bridge (whose window is given index.html, not
// these pages) its session lives in the keychain and its sign-in page differs, so it is rendered
// afresh there, as index.html would be.
const prerendered = container.hasAttribute(PRERENDERED_ATTRIBUTE) && !onDesktop();
// The build rendered English; another language's catalogs load first, and the page is rendered
// afresh in it rather than hydrated (its text would not match).
const language = browserLanguage();
const english = language === 'en';

const app = (
  <StrictMode>
    <AppProviders store={store}>
      <PrerenderedPlansContext value={readPrerenderedPlans(document)}>
        <BrowserRouter>
          <AppRoutes services={services} nothingToRestore={prerendered} />
        </BrowserRouter>
      </PrerenderedPlansContext>
    </AppProviders>
  </StrictMode>
);

// As a transition, hydration works in slices and lets the browser answer between them, instead of
// holding the main thread for the whole page: the page is already on screen, only its code is missing.
if (prerendered && english) startTransition(() => void hydrateRoot(container, app));
else if (english) createRoot(container).render(app);
else
  void showLanguage(language)
    .catch(() => undefined)
    .then(() => {
      if (prerendered) container.replaceChildren();
      createRoot(container).render(app);
    });
