import { createContext, useContext } from 'react';

/** How row actions look: icon buttons in a table row, buttons with their word on a card. */
export type RowActionsLayout = 'icons' | 'buttons';

export const RowActionsLayoutContext = createContext<RowActionsLayout>('icons');

export const useRowActionsLayout = () => useContext(RowActionsLayoutContext);
