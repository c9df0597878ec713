import { PRODUCT_NAME } from '../../../shared/constants.js';

/**
 * The portal's look as mail can carry it: the colours of `src/renderer/src/theme.ts` (the server
 * never imports the renderer, so they are repeated here; a test checks they still match).
 */
export const mailBrand = {
  productName: PRODUCT_NAME,
  fontFamily:
    'Inter, "Segoe UI Variable", "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, sans-serif',
  light: {
    /** `--mantine-color-body` of the light theme: the page around the card. */
    page: '#f7f8fc',
    card: '#ffffff',
    text: '#1f2130',
    /** The light theme's dimmed text, 6.3:1 on white. */
    dimmed: '#5c6075',
    border: '#dde1fd',
    /** iris.6, the primary shade: white text on it is 5.8:1. */
    primary: '#4b57d6',
    onPrimary: '#ffffff',
    /** iris.7, the light theme's link colour. */
    link: '#3d47bd',
  },
  dark: {
    /** dark.9 / dark.7 / dark.0 of the portal's tinted dark scale. */
    page: '#11121b',
    card: '#1f2130',
    text: '#d9dbe7',
    dimmed: '#b1b4c7',
    border: '#363849',
    primary: '#4b57d6',
    onPrimary: '#ffffff',
    /** iris.3, the dark theme's link colour. */
    link: '#939ef3',
  },
} as const;
