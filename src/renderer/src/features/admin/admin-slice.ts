import { createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import type { Paged } from '../../../../shared/api/paging';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from '../../../../shared/constants';
import type { ApiFailure } from '../../lib/api-errors';
import { sessionEnded } from '../auth';
import { adminApi } from './admin-endpoints';
import type { AdminCollection, AdminState } from './admin-types';

export type * from './admin-types';

const emptyPage = <Item>(): Paged<Item> => ({
  data: [],
  total: 0,
  page: DEFAULT_PAGE,
  perPage: DEFAULT_PAGE_SIZE,
});

export const initialAdminState: AdminState = {
  users: emptyPage(),
  licenses: emptyPage(),
  payments: emptyPage(),
  securityEvents: emptyPage(),
  features: emptyPage(),
  systemStats: null,
  selectedUser: null,
  selectedLicense: null,
  selectedPayment: null,
  selectedFeature: null,
  status: 'idle',
  error: null,
};

type Identified = { id?: unknown; license_id?: unknown; feature_id?: unknown };
/** Items are matched by id, or license_id, or feature_id. */
const idOf = (item: Identified) => (item.id ?? item.license_id ?? item.feature_id) as string | undefined;

function prepend<Item>(page: Paged<Item>, item: Item) {
  page.data.unshift(item);
  page.total += 1;
}

function replace<Item extends Identified>(page: Paged<Item>, item: Item) {
  const index = page.data.findIndex((entry) => idOf(entry) === idOf(item));
  if (index >= 0) page.data[index] = item;
}

function remove<Item extends Identified>(page: Paged<Item>, id: string) {
  const before = page.data.length;
  page.data = page.data.filter((entry) => idOf(entry) !== id);
  if (page.data.length < before) page.total = Math.max(0, page.total - 1);
}

const selectedIs = (selected: Identified | null, id: string | undefined) =>
  !!selected && idOf(selected) === id;

const { endpoints } = adminApi;

/** The endpoints whose calls the slice follows (its status and error); the others are screens' own reads. */
const followed = [
  endpoints.getDashboard,
  endpoints.listUsers,
  endpoints.getUser,
  endpoints.createUser,
  endpoints.updateUser,
  endpoints.deleteUser,
  endpoints.listLicenses,
  endpoints.getLicense,
  endpoints.createLicense,
  endpoints.updateLicense,
  endpoints.revokeLicense,
  endpoints.getLicenseActivations,
  endpoints.deactivateActivation,
  endpoints.listPayments,
  endpoints.getPayment,
  endpoints.listSecurityEvents,
  endpoints.listFeatures,
  endpoints.getFeature,
  endpoints.createFeature,
  endpoints.updateFeature,
  endpoints.deleteFeature,
] as const;

const pageSetter = (collection: AdminCollection) => (state: AdminState, action: PayloadAction<number>) => {
  state[collection].page = action.payload;
};

/** Not in the first download: app/slice-loader.tsx injects it when an admin route loads. */
export const adminSlice = createSlice({
  name: 'admin',
  initialState: initialAdminState,
  reducers: {
    setUsersPage: pageSetter('users'),
    setLicensesPage: pageSetter('licenses'),
    setPaymentsPage: pageSetter('payments'),
    setSecurityEventsPage: pageSetter('securityEvents'),
    setFeaturesPage: pageSetter('features'),
    clearSelection(state) {
      state.selectedUser = null;
      state.selectedLicense = null;
      state.selectedPayment = null;
      state.selectedFeature = null;
    },
  },
  extraReducers: (builder) => {
    builder
      .addMatcher(endpoints.getDashboard.matchFulfilled, (state, { payload }) => {
        state.systemStats = payload;
      })
      .addMatcher(endpoints.listUsers.matchFulfilled, (state, { payload }) => {
        state.users = payload;
      })
      .addMatcher(endpoints.getUser.matchFulfilled, (state, { payload }) => {
        state.selectedUser = payload;
      })
      .addMatcher(endpoints.createUser.matchFulfilled, (state, { payload }) => prepend(state.users, payload))
      .addMatcher(endpoints.updateUser.matchFulfilled, (state, { payload }) => {
        replace(state.users, payload);
        if (selectedIs(state.selectedUser, idOf(payload))) state.selectedUser = payload;
      })
      .addMatcher(endpoints.deleteUser.matchFulfilled, (state, { payload: id }) => {
        remove(state.users, id);
        if (selectedIs(state.selectedUser, id)) state.selectedUser = null;
      })
      .addMatcher(endpoints.listLicenses.matchFulfilled, (state, { payload }) => {
        state.licenses = payload;
      })
      .addMatcher(endpoints.getLicense.matchFulfilled, (state, { payload }) => {
        state.selectedLicense = payload;
      })
      .addMatcher(endpoints.createLicense.matchFulfilled, (state, { payload }) =>
        prepend(state.licenses, payload),
      )
      .addMatcher(endpoints.getLicenseActivations.matchFulfilled, (state, { payload }) => {
        if (state.selectedLicense?.license_id === payload.licenseId)
          state.selectedLicense.activations = payload.activations;
      })
      .addMatcher(endpoints.listPayments.matchFulfilled, (state, { payload }) => {
        state.payments = payload;
      })
      .addMatcher(endpoints.getPayment.matchFulfilled, (state, { payload }) => {
        state.selectedPayment = payload;
      })
      .addMatcher(endpoints.listSecurityEvents.matchFulfilled, (state, { payload }) => {
        state.securityEvents = payload;
      })
      .addMatcher(endpoints.listFeatures.matchFulfilled, (state, { payload }) => {
        state.features = payload;
      })
      .addMatcher(endpoints.getFeature.matchFulfilled, (state, { payload }) => {
        state.selectedFeature = payload;
      })
      .addMatcher(endpoints.createFeature.matchFulfilled, (state, { payload }) =>
        prepend(state.features, payload),
      )
      .addMatcher(endpoints.updateFeature.matchFulfilled, (state, { payload }) => {
        replace(state.features, payload);
        if (selectedIs(state.selectedFeature, idOf(payload))) state.selectedFeature = payload;
      })
      .addMatcher(endpoints.deleteFeature.matchFulfilled, (state, { payload: id }) => {
        remove(state.features, id);
        if (selectedIs(state.selectedFeature, id)) state.selectedFeature = null;
      })
      .addMatcher(sessionEnded, () => initialAdminState)
      // Update and revoke both replace the license, in the list and in the selection
      // (so does freeing a seat, which answers the license with its new seat count).
      .addMatcher(
        isAnyOf(
          endpoints.updateLicense.matchFulfilled,
          endpoints.revokeLicense.matchFulfilled,
          endpoints.deactivateActivation.matchFulfilled,
        ),
        (state, { payload }) => {
          replace(state.licenses, payload);
          if (selectedIs(state.selectedLicense, idOf(payload)))
            state.selectedLicense = {
              ...payload,
              activations: payload.activations ?? state.selectedLicense?.activations,
            };
        },
      )
      .addMatcher(isAnyOf(...followed.map((endpoint) => endpoint.matchPending)), (state) => {
        state.status = 'loading';
        state.error = null;
      })
      .addMatcher(isAnyOf(...followed.map((endpoint) => endpoint.matchFulfilled)), (state) => {
        state.status = 'succeeded';
      })
      .addMatcher(isAnyOf(...followed.map((endpoint) => endpoint.matchRejected)), (state, action) => {
        state.status = 'failed';
        // The endpoint's failure carries the message (the server's, else the error's, else the fallback).
        state.error = (action.payload as ApiFailure | undefined)?.message ?? action.error.message ?? null;
      });
  },
});

export const {
  setUsersPage,
  setLicensesPage,
  setPaymentsPage,
  setSecurityEventsPage,
  setFeaturesPage,
  clearSelection,
} = adminSlice.actions;
export const adminReducer = adminSlice.reducer;

/** Before the first action after injection the state has no `admin` yet: it reads as the initial state. */
type WithAdmin = { admin?: AdminState };
export const selectAdmin = (state: WithAdmin) => state.admin ?? initialAdminState;
