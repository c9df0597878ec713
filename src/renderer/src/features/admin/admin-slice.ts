import { createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import type { Paged } from '../../../../shared/api/paging';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE } from '../../../../shared/constants';
import { rootReducer } from '../../app/root-reducer';
import { logoutUser, sessionCleared } from '../auth/auth-slice';
import * as thunks from './admin-thunks';
import type { AdminCollection, AdminState } from './admin-types';

export * from './admin-thunks';
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

const allThunks = [
  thunks.fetchSystemStats,
  thunks.fetchUsers,
  thunks.fetchUser,
  thunks.createUser,
  thunks.updateUser,
  thunks.deleteUser,
  thunks.fetchAdminLicenses,
  thunks.fetchAdminLicense,
  thunks.createLicense,
  thunks.updateLicense,
  thunks.revokeLicense,
  thunks.fetchLicenseActivations,
  thunks.deactivateActivation,
  thunks.fetchPayments,
  thunks.fetchPayment,
  thunks.fetchSecurityEvents,
  thunks.fetchFeatures,
  thunks.fetchFeature,
  thunks.createFeature,
  thunks.updateFeature,
  thunks.deleteFeature,
] as const;

const pageSetter = (collection: AdminCollection) => (state: AdminState, action: PayloadAction<number>) => {
  state[collection].page = action.payload;
};

const adminSlice = createSlice({
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
      .addCase(thunks.fetchSystemStats.fulfilled, (state, { payload }) => {
        state.systemStats = payload;
      })
      .addCase(thunks.fetchUsers.fulfilled, (state, { payload }) => {
        state.users = payload;
      })
      .addCase(thunks.fetchUser.fulfilled, (state, { payload }) => {
        state.selectedUser = payload;
      })
      .addCase(thunks.createUser.fulfilled, (state, { payload }) => prepend(state.users, payload))
      .addCase(thunks.updateUser.fulfilled, (state, { payload }) => {
        replace(state.users, payload);
        if (selectedIs(state.selectedUser, idOf(payload))) state.selectedUser = payload;
      })
      .addCase(thunks.deleteUser.fulfilled, (state, { payload: id }) => {
        remove(state.users, id);
        if (selectedIs(state.selectedUser, id)) state.selectedUser = null;
      })
      .addCase(thunks.fetchAdminLicenses.fulfilled, (state, { payload }) => {
        state.licenses = payload;
      })
      .addCase(thunks.fetchAdminLicense.fulfilled, (state, { payload }) => {
        state.selectedLicense = payload;
      })
      .addCase(thunks.createLicense.fulfilled, (state, { payload }) => prepend(state.licenses, payload))
      .addCase(thunks.fetchLicenseActivations.fulfilled, (state, { payload }) => {
        if (state.selectedLicense?.license_id === payload.licenseId)
          state.selectedLicense.activations = payload.activations;
      })
      .addCase(thunks.fetchPayments.fulfilled, (state, { payload }) => {
        state.payments = payload;
      })
      .addCase(thunks.fetchPayment.fulfilled, (state, { payload }) => {
        state.selectedPayment = payload;
      })
      .addCase(thunks.fetchSecurityEvents.fulfilled, (state, { payload }) => {
        state.securityEvents = payload;
      })
      .addCase(thunks.fetchFeatures.fulfilled, (state, { payload }) => {
        state.features = payload;
      })
      .addCase(thunks.fetchFeature.fulfilled, (state, { payload }) => {
        state.selectedFeature = payload;
      })
      .addCase(thunks.createFeature.fulfilled, (state, { payload }) => prepend(state.features, payload))
      .addCase(thunks.updateFeature.fulfilled, (state, { payload }) => {
        replace(state.features, payload);
        if (selectedIs(state.selectedFeature, idOf(payload))) state.selectedFeature = payload;
      })
      .addCase(thunks.deleteFeature.fulfilled, (state, { payload: id }) => {
        remove(state.features, id);
        if (selectedIs(state.selectedFeature, id)) state.selectedFeature = null;
      })
      .addCase(logoutUser.fulfilled, () => initialAdminState)
      .addCase(logoutUser.rejected, () => initialAdminState)
      .addCase(sessionCleared, () => initialAdminState)
      // Update and revoke both replace the licence, in the list and in the selection
      // (so does freeing a seat, which answers the licence with its new seat count).
      .addMatcher(
        isAnyOf(
          thunks.updateLicense.fulfilled,
          thunks.revokeLicense.fulfilled,
          thunks.deactivateActivation.fulfilled,
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
      .addMatcher(isAnyOf(...allThunks.map((thunk) => thunk.pending)), (state) => {
        state.status = 'loading';
        state.error = null;
      })
      .addMatcher(isAnyOf(...allThunks.map((thunk) => thunk.fulfilled)), (state) => {
        state.status = 'succeeded';
      })
      .addMatcher(isAnyOf(...allThunks.map((thunk) => thunk.rejected)), (state, action) => {
        state.status = 'failed';
        state.error = (action.payload as string | undefined) ?? action.error.message ?? null;
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

// Importing this module adds `admin` to the store (it is not in the first download).
rootReducer.inject(adminSlice);

/** Before the first action after injection the state has no `admin` yet: it reads as the initial state. */
type WithAdmin = { admin?: AdminState };
export const selectAdmin = (state: WithAdmin) => state.admin ?? initialAdminState;
