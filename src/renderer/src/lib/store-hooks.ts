import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import type { Services } from './services';

/** The store's dispatch: actions, thunks and endpoint calls (which get the services). */
export type AppDispatch = ThunkDispatch<unknown, Services, UnknownAction>;

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();

/**
 * Reads the store through a feature's own selectors, each typed on the part of the state it reads
 * (`(state: { auth: AuthState }) => ...`), so no feature needs the whole app's state type.
 */
export const useAppSelector = useSelector;
