import { type CSSVariablesResolver, createTheme, type MantineColorsTuple } from '@mantine/core';

/** The brand: a calm indigo-violet. Shade 6 carries white text at 5.8:1 (WCAG AA). */
const iris: MantineColorsTuple = [
  '#eef0ff',
  '#dde1fd',
  '#b9c1f8',
  '#939ef3',
  '#7380ee',
  '#5e6ceb',
  '#4b57d6',
  '#3d47bd',
  '#333b9a',
  '#292f7a',
];

/** Mantine's dark scale, tinted toward the brand so dark mode feels like the same product. */
const dark: MantineColorsTuple = [
  '#d9dbe7',
  '#b1b4c7',
  '#9094ab',
  '#686c85',
  '#44475c',
  '#363849',
  '#2b2d3c',
  '#1f2130',
  '#181a26',
  '#11121b',
];

const LIGHT_CONTROL_BORDER = (colorVariable: string) =>
  `calc(0.0625rem * var(--mantine-scale)) solid var(${colorVariable})`;

export const theme = createTheme({
  primaryColor: 'iris',
  primaryShade: { light: 6, dark: 6 },
  colors: { iris, dark },
  // Keyboard users always see where they are; mouse clicks do not leave rings behind.
  focusRing: 'auto',
  cursorType: 'pointer',
  respectReducedMotion: true,
  defaultRadius: 'md',
  fontFamily:
    'Inter, "Segoe UI Variable", "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: {
    fontFamily:
      'Inter, "Segoe UI Variable", "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, sans-serif',
    fontWeight: '700',
    textWrap: 'balance',
  },
  defaultGradient: { from: 'iris.6', to: 'grape.6', deg: 135 },
  components: {
    // A light button's tinted fill is about 1.1:1 against the card or page, so it gets an outline in
    // its text colour (at least 3:1 against either, in light and dark) to be seen as a control.
    Button: {
      defaultProps: { fw: 600 },
      vars: (_theme: unknown, props: { variant?: string }) => ({
        root: props.variant === 'light' ? { '--button-bd': LIGHT_CONTROL_BORDER('--button-color') } : {},
      }),
    },
    ActionIcon: {
      vars: (_theme: unknown, props: { variant?: string }) => ({
        root: props.variant === 'light' ? { '--ai-bd': LIGHT_CONTROL_BORDER('--ai-color') } : {},
      }),
    },
    TextInput: { defaultProps: { size: 'md' } },
    PasswordInput: { defaultProps: { size: 'md' } },
    Paper: { defaultProps: { radius: 'lg' } },
    Card: { defaultProps: { radius: 'lg' } },
    // Mantine's close buttons are icon-only: give each a name screen readers can announce. A
    // dialog's title bar is a <header>, which would be a second banner landmark beside the page's
    // while the dialog is open: it is only a title bar.
    Modal: {
      defaultProps: {
        closeButtonProps: { 'aria-label': 'Close' },
        attributes: { header: { role: 'none' } },
      },
    },
    Drawer: {
      defaultProps: {
        closeButtonProps: { 'aria-label': 'Close' },
        attributes: { header: { role: 'none' } },
      },
    },
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
      // Mantine's grey description is under 4.5:1 on the toast, light or dark: every toast reads in the text colour.
      styles: { description: { color: 'var(--mantine-color-text)' } },
    },
  },
});

/**
 * Mantine's default dimmed grey (3.3:1 on white), light error red (3.3:1) and dark anchor blue
 * miss WCAG AA for small text; these replacements pass it on every surface the portal uses.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {
    '--focus-ring-color': 'var(--mantine-color-iris-5)',
  },
  light: {
    '--mantine-color-body': '#f7f8fc',
    '--mantine-color-dimmed': '#5c6075',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-anchor': 'var(--mantine-color-iris-7)',
    '--mantine-color-placeholder': '#5c6075',
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-2)',
    '--mantine-color-error': 'var(--mantine-color-red-5)',
    '--mantine-color-anchor': 'var(--mantine-color-iris-3)',
    '--mantine-color-placeholder': 'var(--mantine-color-dark-2)',
  },
});
