import { t } from '@lingui/core/macro';
import type { FloatingPeaks, FloatingSeats } from '../../../../shared/api/floating';
import { pathWith } from '../../../../shared/routes';
import { floatingApiPaths } from '../../../../shared/api-paths';
import type { FloatingSeatState } from '../../../../shared/bridge';
import { api, servicesOf } from '../../lib/api';
import { attempt } from '../../lib/api-errors';

const desktopOnly = () => new Error(t`Borrowing a seat happens in the desktop app.`);
const THIS_SEAT = { type: 'ThisMachine' as const, id: 'floating-seat' };

const seatsTag = (licenseId: string) => ({ type: 'License' as const, id: `floating:${licenseId}` });

/** A floating license's seats in use and its daily peaks, for its owner and administrators. */
export const floatingApi = api.injectEndpoints({
  endpoints: (build) => ({
    getFloatingSeats: build.query<FloatingSeats, string>({
      query: (licenseId) => ({ url: pathWith(floatingApiPaths.seats, { id: licenseId }) }),
      extraOptions: {
        get fallback() {
          return t`Could not load the floating seats`;
        },
      },
      providesTags: (_result, _error, licenseId) => [seatsTag(licenseId)],
    }),
    getFloatingPeaks: build.query<FloatingPeaks, { licenseId: string; days: number }>({
      query: ({ licenseId, days }) => ({
        url: pathWith(floatingApiPaths.peaks, { id: licenseId }),
        params: { days },
      }),
      extraOptions: {
        get fallback() {
          return t`Could not load the peak use`;
        },
      },
      providesTags: (_result, _error, { licenseId }) => [seatsTag(licenseId)],
    }),
    releaseFloatingSeat: build.mutation<FloatingSeats, { licenseId: string; seatId: string }>({
      query: ({ licenseId, seatId }) => ({
        url: pathWith(floatingApiPaths.seat, { id: licenseId, seatId }),
        method: 'DELETE',
      }),
      extraOptions: {
        get fallback() {
          return t`Could not free the seat`;
        },
      },
      invalidatesTags: (result, _error, { licenseId }) => (result ? [seatsTag(licenseId)] : []),
    }),

    /** This desktop's own seat, as main holds it; null on the web (no seat of its own). */
    getThisMachineSeat: build.query<FloatingSeatState | null, void>({
      queryFn: (_args, queryApi, options) =>
        attempt(async () => (await servicesOf(queryApi).platform.floating?.state()) ?? null, options),
      extraOptions: {
        get fallback() {
          return t`Could not read this machine’s seat`;
        },
      },
      providesTags: [THIS_SEAT],
    }),
    /** "Borrow for offline use…": main borrows this machine's seat for `days`. */
    borrowThisMachineSeat: build.mutation<FloatingSeatState, { licenseId: string; days: number }>({
      queryFn: ({ days }, queryApi, options) =>
        attempt(async () => {
          const { floating } = servicesOf(queryApi).platform;
          if (!floating) throw desktopOnly();
          return floating.borrow(days);
        }, options),
      extraOptions: {
        get fallback() {
          return t`Could not borrow the seat`;
        },
      },
      invalidatesTags: (_result, _error, { licenseId }) => [THIS_SEAT, seatsTag(licenseId)],
    }),
    returnThisMachineSeat: build.mutation<FloatingSeatState, { licenseId: string }>({
      queryFn: (_args, queryApi, options) =>
        attempt(async () => {
          const { floating } = servicesOf(queryApi).platform;
          if (!floating) throw desktopOnly();
          return floating.returnBorrowed();
        }, options),
      extraOptions: {
        get fallback() {
          return t`Could not return the seat`;
        },
      },
      invalidatesTags: (_result, _error, { licenseId }) => [THIS_SEAT, seatsTag(licenseId)],
    }),
  }),
});

export const {
  useGetFloatingSeatsQuery,
  useGetFloatingPeaksQuery,
  useReleaseFloatingSeatMutation,
  useGetThisMachineSeatQuery,
  useBorrowThisMachineSeatMutation,
  useReturnThisMachineSeatMutation,
} = floatingApi;
