import { randomUUID, webcrypto } from 'node:crypto';
import type {
  FloatingBorrowRequest,
  FloatingCheckoutRequest,
  FloatingHolder,
  FloatingHolderMember,
  FloatingMachineRequest,
  FloatingMemberCheckoutRequest,
  FloatingMemberSeat,
  FloatingPeaks,
  FloatingRelease,
  FloatingSeatAnswer,
  FloatingSeats,
} from '../../../shared/api/floating.js';
import type { PlanCatalogueCache } from '../../catalogue/index.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, UserRow } from '../../platform/db/tables.js';
import { generateLicenseKey, normalizeLicenseKey } from '../../../shared/license-key.js';
import { sha256 } from '../../platform/crypto.js';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../platform/http-error.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import type { LicensingEvents } from '../events.js';
import type { LeaseSigner } from '../leases/lease-signer.js';
import { createLicenseAccess, licenseNotFound } from '../licenses/access.js';
import { invalidKey, unknownKey } from '../licenses/refusals.js';
import {
  findLicenseById,
  findLicenseByKey,
  getOrganisationName,
  lockLicense,
} from '../licenses/repository.js';
import { organisationAccess, organisationNotFound } from '../organisations/access.js';
import { findOrganisation } from '../organisations/repository.js';
import {
  findMembership,
  findOrganisationLicense,
  lockOrganisation,
} from '../organisations/seats-repository.js';
import { announceLapsed, type LapsedSeat } from './lapses.js';
import {
  deleteSeatRows,
  findMemberKey,
  memberNames,
  type FloatingMemberKeyRow,
  type FloatingSeatRow,
  type FloatingTerms,
  floatingTermsOf,
  insertSeatRow,
  peaksSince,
  raisePeak,
  renewSeatRow,
  replaceMemberKey,
  seatRowsOfLicense,
} from './repository.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const notFloating = () =>
  conflict(
    'license_not_floating',
    'This license is not a floating license: activate the machine on it instead.',
  );
const seatLapsed = () =>
  conflict(
    'floating_seat_lapsed',
    'This machine no longer holds a seat: its heartbeats stopped for longer than the lease. Check a seat out again.',
  );
const borrowNotAllowed = () =>
  conflict(
    'floating_borrow_not_allowed',
    'This license’s plan does not allow borrowing a seat for offline use.',
  );
const borrowTooLong = (max: number) =>
  badRequest(
    'floating_borrow_too_long',
    `A seat of this license may be borrowed for at most ${max} ${max === 1 ? 'day' : 'days'}.`,
  );

export const toHolder = (row: FloatingSeatRow, member?: FloatingHolderMember): FloatingHolder => ({
  seat_id: row.id,
  device_name: row.device_name,
  checked_out_at: row.checked_out_at,
  last_heartbeat_at: row.heartbeat_at,
  held_until: row.holds_until,
  borrowed_until: row.borrowed_until,
  ...(member ? { member } : {}),
});

/** Who looks at a pool's holders: an account, or (a member machine's key) the member it was given to. */
type HolderViewer = Pick<UserRow, 'id' | 'role'> | null;

/**
 * The holders as `viewer` may see them: on an organisation's pool, a seat names its member to
 * the member themself, the organisation's owner and admins and platform administrators; anyone
 * else (and every holder of a personal license) sees machines and since when only.
 */
export async function visibleHolders(
  db: DbOrTransaction,
  license: Pick<LicenseRow, 'organisation_id'>,
  rows: FloatingSeatRow[],
  viewer: HolderViewer,
): Promise<FloatingHolder[]> {
  const organisationId = license.organisation_id;
  if (organisationId === null || viewer === null) return rows.map((row) => toHolder(row));
  const role =
    viewer.role === 'admin' ? 'admin' : (await findMembership(db, organisationId, viewer.id))?.role;
  const seesAll = role === 'owner' || role === 'admin';
  const named = new Set(
    rows.flatMap((row) =>
      row.held_by !== null && (seesAll || row.held_by === viewer.id) ? [row.held_by] : [],
    ),
  );
  const names = await memberNames(db, [...named]);
  return rows.map((row) => toHolder(row, row.held_by === null ? undefined : names.get(row.held_by)));
}

/** All seats are out: a 409 with who holds them and when the first may come back. */
function seatsFull(terms: FloatingTerms, holders: FloatingHolder[], now: Date): HttpError {
  const earliest = holders[0]?.held_until ?? now.toISOString();
  const seconds = Math.max(1, Math.ceil((Date.parse(earliest) - now.getTime()) / 1000));
  return new HttpError(
    409,
    'floating_seats_full',
    `All ${terms.seats} floating ${terms.seats === 1 ? 'seat is' : 'seats are'} in use. Ask a holder to close the app, or try again after ${earliest}.`,
    { 'retry-after': String(seconds) },
    {
      seats: terms.seats,
      holders,
      retry_at: earliest,
      retry_after_seconds: seconds,
    },
  );
}

const later = (a: string, b: string | null) => (b !== null && b > a ? b : a);

interface SeatChange {
  row: FloatingSeatRow;
  inUse: number;
}

/**
 * Floating seats: a machine checks one out with the key and its hardware id, holds it by heartbeats
 * for the plan's lease, releases it, or borrows it for days of offline use. Every change runs under
 * the license's lock, so N + 1 machines asking for the last seat at once leave exactly N holding
 * one, on any number of instances. A seat whose heartbeats stopped (or whose borrow ended) is free
 * from that moment: each change drops the license's lapsed seats first, and maintenance the rest.
 */
/** Who asks for a seat: the license (by its key, or a member machine's key) and, for a member, who. */
interface SeatHolder {
  license: LicenseRow;
  terms: FloatingTerms;
  /** The key the machine presented (the lease binds to it): the license's, or a member machine's. */
  key: string;
  /** A member's machine of an organisation's pool; null for the license's own key. */
  member: Pick<FloatingMemberKeyRow, 'organisation_id' | 'user_id'> | null;
}

const noLongerMember = (name: string) =>
  forbidden(
    'not_a_member',
    `You are no longer a member of ${name}: this machine cannot take ${name}’s floating seats. Ask its administrators.`,
  );

/**
 * Floating seats: a machine checks one out with the key and its hardware id, holds it by heartbeats
 * for the plan's lease, releases it, or borrows it for days of offline use. Every change runs under
 * the license's lock, so N + 1 machines asking for the last seat at once leave exactly N holding
 * one, on any number of instances. A seat whose heartbeats stopped (or whose borrow ended) is free
 * from that moment: each change drops the license's lapsed seats first, and maintenance the rest.
 * An organisation's members never see its key: a member's machine checks out signed in
 * (`checkoutAsMember`), which gives it a key of its own for the same routes.
 */
export function createFloatingService({
  db,
  clock,
  leases,
  events,
  planCatalogue,
}: {
  db: Db;
  clock: Clock;
  leases: LeaseSigner;
  events: LicensingEvents;
  /** The plan and its features as the license check reads them (catalogue's cache). */
  planCatalogue: Pick<PlanCatalogueCache, 'get'>;
}) {
  const access = createLicenseAccess({ db, clock });

  async function floatingTerms(license: LicenseRow): Promise<FloatingTerms> {
    access.assertActive(license);
    const terms = await floatingTermsOf(db, license);
    if (!terms) throw notFloating();
    return terms;
  }

  /**
   * The license a machine's key names: the license's own key, or a member machine's key, which
   * works only from the machine it was given to (from any other it is no key at all).
   */
  async function holderOf(typedKey: string, hardwareId: string): Promise<SeatHolder> {
    const key = normalizeLicenseKey(typedKey);
    if (!key) throw invalidKey();
    const license = await findLicenseByKey(db, key);
    if (license) return { license, terms: await floatingTerms(license), key, member: null };
    const memberKey = await findMemberKey(db, sha256(key));
    if (!memberKey || memberKey.hardware_id !== hardwareId) throw unknownKey();
    const keyLicense = await findLicenseById(db, memberKey.license_id);
    if (!keyLicense) throw unknownKey();
    return {
      license: keyLicense,
      terms: await floatingTerms(keyLicense),
      key,
      member: { organisation_id: memberKey.organisation_id, user_id: memberKey.user_id },
    };
  }

  /**
   * Under the license's lock: a member's machine takes or keeps a seat only while they are a
   * member. A removal takes the same lock to free their seats, so one of the two sees the other.
   */
  async function assertStillMember(trx: DbOrTransaction, holder: SeatHolder): Promise<void> {
    if (!holder.member) return;
    if (await findMembership(trx, holder.member.organisation_id, holder.member.user_id)) return;
    throw noLongerMember(await getOrganisationName(trx, holder.member.organisation_id));
  }

  /** The license's seats under its lock: lapsed ones dropped (and announced), live ones earliest end first. */
  async function liveSeats(trx: DbOrTransaction, license: LicenseRow, now: Date): Promise<FloatingSeatRow[]> {
    await lockLicense(trx, license.id);
    const rows = await seatRowsOfLicense(trx, license.id);
    const at = now.toISOString();
    const lapsed = rows.filter((row) => row.holds_until <= at);
    await deleteSeatRows(
      trx,
      lapsed.map((row) => row.id),
    );
    await announceLapsed(
      trx,
      clock,
      events,
      lapsed.map((row): LapsedSeat => ({ row, license })),
    );
    return rows.filter((row) => row.holds_until > at);
  }

  async function answer(
    holder: SeatHolder,
    { row, inUse }: SeatChange,
    message: string,
  ): Promise<FloatingSeatAnswer> {
    const { license, terms } = holder;
    const now = clock.now();
    const { plan, features } = await planCatalogue.get(license.plan_id);
    const lifetimeSeconds = Math.max(1, Math.floor((Date.parse(row.holds_until) - now.getTime()) / 1000));
    const signed = await leases.sign({
      licenseId: license.id,
      // Bound to the key the machine checks with: a member's machine's own, never the organisation's.
      licenseKey: holder.key,
      hardwareId: row.hardware_id,
      plan: { id: plan.id, code: plan.code, name: plan.name },
      features: features.map(({ key, kind, limit }) => ({ key, kind, limit })),
      licenseExpiresAt: license.expires_at,
      floating: { seatId: row.id, borrowedUntil: row.borrowed_until, lifetimeSeconds },
    });
    return {
      license_id: license.id,
      seat_id: row.id,
      seats: terms.seats,
      in_use: inUse,
      // A third of the lease: two heartbeats may be lost before the seat lapses.
      heartbeat_seconds: Math.max(10, Math.floor((terms.leaseMinutes * 60) / 3)),
      max_borrow_days: terms.maxBorrowDays,
      checked_out_at: row.checked_out_at,
      held_until: row.holds_until,
      borrowed_until: row.borrowed_until,
      lease: signed.lease,
      lease_expires_at: signed.expiresAt,
      message,
    };
  }

  /**
   * Takes or renews the machine's seat; with `borrowDays`, borrows it until then. Refused with
   * who holds the seats when all are out (announced once, when the last one is taken). `first`
   * runs at the start of the transaction, before the license's lock (a member's sign-in checkout
   * takes the organisation's there, as every seat decision of an organisation does, in that order);
   * `then` runs after the seat is taken, in the same transaction.
   */
  async function takeSeat<T = undefined>(
    holder: SeatHolder,
    request: { hardware_id: string; device_name?: string | undefined },
    borrowDays: number | null,
    steps: {
      first?: (trx: DbOrTransaction) => Promise<void>;
      then?: (trx: DbOrTransaction) => Promise<T>;
      /** Who is told the holders when all seats are out (by default, a member machine's member). */
      viewer?: HolderViewer;
    } = {},
  ): Promise<{ change: SeatChange; taken: boolean; extra: T | undefined }> {
    const { license, terms } = holder;
    if (borrowDays !== null) {
      if (terms.maxBorrowDays === 0) throw borrowNotAllowed();
      if (borrowDays > terms.maxBorrowDays) throw borrowTooLong(terms.maxBorrowDays);
    }
    const outcome = await db.transaction().execute(async (trx) => {
      await steps.first?.(trx);
      const now = clock.now();
      const at = now.toISOString();
      const live = await liveSeats(trx, license, now);
      await assertStillMember(trx, holder);
      const leaseEnd = new Date(now.getTime() + terms.leaseMinutes * MINUTE_MS).toISOString();
      const borrowEnd =
        borrowDays === null ? null : new Date(now.getTime() + borrowDays * DAY_MS).toISOString();
      const own = live.find((row) => row.hardware_id === request.hardware_id);
      if (own) {
        const borrowedUntil = borrowEnd ?? own.borrowed_until;
        const renewed: FloatingSeatRow = {
          ...own,
          heartbeat_at: at,
          borrowed_until: borrowedUntil,
          holds_until: later(leaseEnd, borrowedUntil),
          device_name: request.device_name ?? own.device_name,
        };
        await renewSeatRow(trx, own.id, renewed);
        const extra = await steps.then?.(trx);
        return { change: { row: renewed, inUse: live.length }, taken: false, full: undefined, extra };
      }
      if (live.length >= terms.seats)
        return { full: live, change: undefined, taken: false, extra: undefined };
      const row: FloatingSeatRow = {
        id: randomUUID(),
        license_id: license.id,
        hardware_id: request.hardware_id,
        device_name: request.device_name ?? null,
        checked_out_at: at,
        heartbeat_at: at,
        holds_until: later(leaseEnd, borrowEnd),
        borrowed_until: borrowEnd,
        held_by: holder.member?.user_id ?? null,
      };
      await insertSeatRow(trx, row);
      const inUse = live.length + 1;
      await raisePeak(trx, license.id, at.slice(0, 10), inUse);
      if (inUse === terms.seats) await announceExhausted(trx, license, terms, [...live, row]);
      const extra = await steps.then?.(trx);
      return { change: { row, inUse }, taken: true, full: undefined, extra };
    });
    if (outcome.full) {
      const viewer =
        steps.viewer ?? (holder.member ? { id: holder.member.user_id, role: 'user' as const } : null);
      throw seatsFull(terms, await visibleHolders(db, license, outcome.full, viewer), clock.now());
    }
    if (!outcome.change) throw new Error('a seat change without its seat');
    return { change: outcome.change, taken: outcome.taken, extra: outcome.extra };
  }

  async function announceExhausted(
    trx: DbOrTransaction,
    license: LicenseRow,
    terms: FloatingTerms,
    holders: FloatingSeatRow[],
  ) {
    const details = {
      license_id: license.id,
      seats: terms.seats,
      holders: holders.map((row) => ({ seat_id: row.id, device_name: row.device_name })),
    };
    await events.publish(trx, { type: 'floating.seats_exhausted', license, floating: details });
    await recordSecurityEvent(trx, clock, {
      type: securityEventTypes.floatingSeatsExhausted,
      severity: 'info',
      userId: license.user_id,
      details,
    });
  }

  /** The license if the user may see and free its seats: its owner, its organisation's managers, administrators. */
  async function managedLicense(user: UserRow, licenseId: string) {
    const license = await findLicenseById(db, licenseId);
    if (!license) throw licenseNotFound();
    const allowed =
      user.role === 'admin' ||
      license.user_id === user.id ||
      (license.organisation_id !== null &&
        (await organisationAccess(db, license.organisation_id, user).catch(() => undefined))?.manages ===
          true);
    if (!allowed) throw licenseNotFound();
    const terms = await floatingTermsOf(db, license);
    if (!terms) throw notFloating();
    return { license, terms };
  }

  return {
    async checkout(request: FloatingCheckoutRequest): Promise<FloatingSeatAnswer & { taken: boolean }> {
      const holder = await holderOf(request.license_key, request.hardware_id);
      const { change, taken } = await takeSeat(holder, request, null);
      const message = taken
        ? 'A floating seat is yours while the app runs.'
        : 'This machine already holds a seat; it is renewed.';
      return { ...(await answer(holder, change, message)), taken };
    },

    /**
     * A member's machine checks a seat of the organisation's floating pool out, signed in: no named
     * seat is needed. Decided under the organisation's lock (a removal meanwhile is seen) and then
     * the license's, as any checkout; the answer carries the machine's own key, made in the same
     * transaction (the one it had before stops).
     */
    async checkoutAsMember(
      user: UserRow,
      organisationId: string,
      request: FloatingMemberCheckoutRequest,
    ): Promise<FloatingMemberSeat & { taken: boolean }> {
      const checkMember = async (trx: DbOrTransaction) => {
        if (!(await findOrganisation(trx, organisationId))) throw organisationNotFound();
        if (await findMembership(trx, organisationId, user.id)) return;
        // An outsider learns nothing; a platform administrator sees the organisation but runs on
        // its pool only as a member.
        if (user.role !== 'admin') throw organisationNotFound();
        throw forbidden(
          'not_a_member',
          'Only the organization’s members take its floating seats. Join it first.',
        );
      };
      // Who may ask is settled before anything of the license is told.
      await checkMember(db);
      const license = await findOrganisationLicense(db, organisationId);
      if (!license)
        throw notFound('license_not_found', 'The organization has no license yet. Ask its administrators.');
      const key = generateLicenseKey((bytes) => webcrypto.getRandomValues(bytes));
      const holder: SeatHolder = {
        license,
        terms: await floatingTerms(license),
        key,
        member: { organisation_id: organisationId, user_id: user.id },
      };
      const { change, taken, extra } = await takeSeat(holder, request, null, {
        viewer: user,
        // The organisation's lock before the license's, as every seat decision of an organisation.
        first: async (trx) => {
          await lockOrganisation(trx, organisationId);
          await checkMember(trx);
        },
        then: async (trx) => {
          await replaceMemberKey(trx, {
            key_hash: sha256(key),
            license_id: license.id,
            organisation_id: organisationId,
            user_id: user.id,
            hardware_id: request.hardware_id,
            created_at: clock.now().toISOString(),
          });
          return getOrganisationName(trx, organisationId);
        },
      });
      const message = taken
        ? 'A floating seat is yours while the app runs.'
        : 'This machine already holds a seat; it is renewed.';
      return {
        ...(await answer(holder, change, message)),
        seat_key: key,
        organisation_id: organisationId,
        organisation_name: extra ?? '',
        taken,
      };
    },

    async heartbeat(request: FloatingMachineRequest): Promise<FloatingSeatAnswer> {
      const holder = await holderOf(request.license_key, request.hardware_id);
      const { license, terms } = holder;
      const change = await db.transaction().execute(async (trx) => {
        const now = clock.now();
        const live = await liveSeats(trx, license, now);
        await assertStillMember(trx, holder);
        const own = live.find((row) => row.hardware_id === request.hardware_id);
        // A heartbeat after the lease ended finds the seat gone: it may be another machine's now.
        if (!own) return undefined;
        const leaseEnd = new Date(now.getTime() + terms.leaseMinutes * MINUTE_MS).toISOString();
        const renewed = {
          ...own,
          heartbeat_at: now.toISOString(),
          holds_until: later(leaseEnd, own.borrowed_until),
        };
        await renewSeatRow(trx, own.id, renewed);
        return { row: renewed, inUse: live.length };
      });
      if (!change) throw seatLapsed();
      return answer(holder, change, 'The seat is held.');
    },

    async borrow(request: FloatingBorrowRequest): Promise<FloatingSeatAnswer & { taken: boolean }> {
      const holder = await holderOf(request.license_key, request.hardware_id);
      const { change, taken } = await takeSeat(holder, request, request.days);
      const message = `The seat is borrowed until ${change.row.borrowed_until ?? ''}: the app runs offline until then.`;
      return { ...(await answer(holder, change, message)), taken };
    },

    /** Gives the machine's seat back (on quit, or a borrowed seat returned early); done once, answered always. */
    async release(request: FloatingMachineRequest, what: 'release' | 'return'): Promise<FloatingRelease> {
      const { license } = await holderOf(request.license_key, request.hardware_id);
      const released = await db.transaction().execute(async (trx) => {
        const live = await liveSeats(trx, license, clock.now());
        const own = live.find((row) => row.hardware_id === request.hardware_id);
        return own ? (await deleteSeatRows(trx, [own.id])) === 1 : false;
      });
      return {
        license_id: license.id,
        released,
        message: released
          ? what === 'return'
            ? 'The borrowed seat is returned and free for another machine.'
            : 'The seat is free for another machine.'
          : 'This machine holds no seat.',
      };
    },

    async seats(user: UserRow, licenseId: string): Promise<FloatingSeats> {
      const { license, terms } = await managedLicense(user, licenseId);
      const at = clock.now().toISOString();
      const live = (await seatRowsOfLicense(db, license.id)).filter((row) => row.holds_until > at);
      return {
        license_id: license.id,
        seats: terms.seats,
        lease_minutes: terms.leaseMinutes,
        max_borrow_days: terms.maxBorrowDays,
        in_use: await visibleHolders(db, license, live, user),
      };
    },

    /** An owner or administrator frees a seat by hand (a machine that will not come back, say). */
    async releaseByHand(user: UserRow, licenseId: string, seatId: string): Promise<FloatingSeats> {
      const { license } = await managedLicense(user, licenseId);
      await db.transaction().execute(async (trx) => {
        const live = await liveSeats(trx, license, clock.now());
        const seat = live.find((row) => row.id === seatId);
        if (!seat) throw new HttpError(404, 'floating_seat_not_found', 'No machine holds this seat now.');
        await deleteSeatRows(trx, [seat.id]);
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.floatingSeatReleased,
          severity: 'info',
          userId: license.user_id,
          actorId: user.id,
          details: {
            license_id: license.id,
            seat_id: seat.id,
            device_name: seat.device_name,
            borrowed_until: seat.borrowed_until,
          },
        });
      });
      return this.seats(user, licenseId);
    },

    async peaks(user: UserRow, licenseId: string, days: number): Promise<FloatingPeaks> {
      const { license, terms } = await managedLicense(user, licenseId);
      const today = Date.parse(`${clock.now().toISOString().slice(0, 10)}T00:00:00.000Z`);
      const first = new Date(today - (days - 1) * DAY_MS).toISOString().slice(0, 10);
      const stored = new Map(
        (await peaksSince(db, license.id, first)).map((row) => [row.day, Number(row.peak)]),
      );
      return {
        license_id: license.id,
        seats: terms.seats,
        days: Array.from({ length: days }, (_, index) => {
          const day = new Date(today - (days - 1 - index) * DAY_MS).toISOString().slice(0, 10);
          return { day, peak: stored.get(day) ?? 0 };
        }),
      };
    },
  };
}

export type FloatingService = ReturnType<typeof createFloatingService>;
