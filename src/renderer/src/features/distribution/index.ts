// The desktop app's own updates as app/ and other features see them. Both parts are loaded when
// shown: they bring the API cache, which the first download does without, and on the web they
// show nothing.

/** The signed-in header's quiet sign of a download or a downloaded update. */
export const loadUpdateIndicator = () => import('./components/update-indicator');

/** The Profile page's App updates section: progress, release notes, restart, check now, channel. */
export const loadDesktopUpdatesCard = () => import('./components/desktop-updates-card');
