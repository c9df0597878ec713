import { createAsyncThunk } from '@reduxjs/toolkit';
import type { Services } from './services';

/** Every async operation goes idle → loading → succeeded | failed. */
export type AsyncStatus = 'idle' | 'loading' | 'succeeded' | 'failed';

/** Thunks reach the API through the store's services; a rejection's payload is the message to show. */
export const createAppThunk = createAsyncThunk.withTypes<{ extra: Services; rejectValue: string }>();

/** The thunk API types of every app thunk (for helpers that take a thunk as an argument). */
export type AppThunkConfig = { extra: Services; rejectValue: string };
