/** Whether the page runs in the desktop shell's window, whose preload puts `window.desktop` there. */
export const onDesktop = (): boolean => typeof window !== 'undefined' && window.desktop !== undefined;
