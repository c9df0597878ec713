import { type ComponentType, lazy, type LazyExoticComponent } from 'react';
import { matchPath } from 'react-router-dom';
import { portalPaths } from '../../../shared/routes';

type ScreenModule = Promise<{ default: ComponentType }>;

/**
 * A table of screens by their name in `portalPaths`, each a lazy chunk, and `preloadAt`, which
 * starts downloading the one shown at an address before the router renders it (see AppLayout's
 * `warm`).
 */
export function lazyScreens<Name extends keyof typeof portalPaths>(
  loaders: Record<Name, () => ScreenModule>,
): {
  pages: Record<Name, LazyExoticComponent<ComponentType>>;
  preloadAt: (pathname: string) => void;
} {
  const names = Object.keys(loaders) as Name[];
  const pages = Object.fromEntries(names.map((name) => [name, lazy(loaders[name])])) as Record<
    Name,
    LazyExoticComponent<ComponentType>
  >;
  const preloadAt = (pathname: string) => {
    const name = names.find((candidate) => matchPath(portalPaths[candidate], pathname));
    // A failed download is the screen's to show when it renders (its lazy import asks again).
    if (name) loaders[name]().catch(() => undefined);
  };
  return { pages, preloadAt };
}
