/**
 * The script index.html runs before anything is painted: it applies the colour scheme kept in this
 * browser (by Mantine's colour-scheme manager, under its default key) so a saved dark theme never
 * flashes light while React loads. 'auto', or nothing saved, follows the device, as
 * `MantineProvider defaultColorScheme="auto"` then does.
 *
 * The build puts it inline into index.html (electron.vite.config.ts), and both Content Security
 * Policies (the server's and the desktop shell's) allow exactly this text by its hash, so keep it
 * plain ES5 and change it only here.
 */
export const THEME_BOOT_SCRIPT =
  "(function(){try{var s=localStorage.getItem('mantine-color-scheme-value');" +
  "var c=s==='light'||s==='dark'?s:matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';" +
  "document.documentElement.setAttribute('data-mantine-color-scheme',c)}catch(e){}})();";
