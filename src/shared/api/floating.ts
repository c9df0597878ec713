import { z } from 'zod';
import { displayText, idParamsSchema, isoDateTimeSchema, recordIdSchema } from './common.js';
import { apiErrorSchema } from './errors.js';
import { hardwareIdSchema, licenseKeyInputSchema } from './licenses.js';
import { MAX_FLOATING_BORROW_DAYS } from './plans.js';

/** The most days of daily peaks one request may ask for. */
export const MAX_FLOATING_PEAK_DAYS = 366;

const machineFields = { license_key: licenseKeyInputSchema, hardware_id: hardwareIdSchema };

/** A machine asks for a seat: the key and its hardware id are its credentials, as in a license check. */
export const floatingCheckoutRequestSchema = z
  .strictObject({ ...machineFields, device_name: displayText(100).optional() })
  .meta({ id: 'FloatingCheckoutRequest' });
export type FloatingCheckoutRequest = z.infer<typeof floatingCheckoutRequestSchema>;

/** A heartbeat, a release or the return of a borrowed seat: which machine, of which license. */
export const floatingMachineRequestSchema = z
  .strictObject(machineFields)
  .meta({ id: 'FloatingMachineRequest' });
export type FloatingMachineRequest = z.infer<typeof floatingMachineRequestSchema>;

export const floatingBorrowRequestSchema = z
  .strictObject({
    ...machineFields,
    device_name: displayText(100).optional(),
    days: z
      .number()
      .int('Borrow whole days')
      .min(1, 'Borrow for at least 1 day')
      .max(MAX_FLOATING_BORROW_DAYS, `Borrow for at most ${MAX_FLOATING_BORROW_DAYS} days`),
  })
  .meta({ id: 'FloatingBorrowRequest' });
export type FloatingBorrowRequest = z.infer<typeof floatingBorrowRequestSchema>;

/** The member of an organisation whose machine holds a seat of its pool. */
export const floatingHolderMemberSchema = z
  .object({
    user_id: z.string(),
    name: z.string().describe('Their full name, else their e-mail address'),
  })
  .meta({ id: 'FloatingHolderMember' });
export type FloatingHolderMember = z.infer<typeof floatingHolderMemberSchema>;

/** A machine holding a seat, as the license's owner, its administrators and its key's holder see it. */
export const floatingHolderSchema = z
  .object({
    seat_id: z.string(),
    device_name: z.string().nullable().describe('The name the machine gave; null when it gave none'),
    checked_out_at: isoDateTimeSchema.describe('Since when it holds the seat'),
    last_heartbeat_at: isoDateTimeSchema,
    held_until: isoDateTimeSchema.describe('The seat comes back then unless a heartbeat renews it'),
    borrowed_until: isoDateTimeSchema.nullable().describe('While borrowed for offline use: until when'),
    member: floatingHolderMemberSchema
      .optional()
      .describe(
        'On an organization’s pool, the member whose machine it is, shown only to those who may see it: the member themself, the organization’s owner and admins, and platform administrators. Others see the machine and since when alone',
      ),
  })
  .meta({ id: 'FloatingHolder' });
export type FloatingHolder = z.infer<typeof floatingHolderSchema>;

/** The seat a machine holds: how often to heartbeat, and a signed lease bound to the machine. */
export const floatingSeatAnswerSchema = z
  .object({
    license_id: z.string(),
    seat_id: z.string(),
    seats: z.number().int().describe('Seats of the license'),
    in_use: z.number().int().describe('Seats held now, this one included'),
    heartbeat_seconds: z.number().int().describe('Send a heartbeat this often to keep the seat'),
    max_borrow_days: z.number().int().describe('The most days the seat may be borrowed for; 0: none'),
    checked_out_at: isoDateTimeSchema,
    held_until: isoDateTimeSchema,
    borrowed_until: isoDateTimeSchema.nullable(),
    lease: z
      .string()
      .describe(
        'Ed25519-signed compact JWS bound to the machine; a borrowed seat’s lease lasts the borrow. Verify with GET /licensing/public-key',
      ),
    lease_expires_at: isoDateTimeSchema,
    message: z.string(),
  })
  .meta({ id: 'FloatingSeat' });
export type FloatingSeatAnswer = z.infer<typeof floatingSeatAnswerSchema>;

/** All seats are out: who holds them and when the first may come back. */
export const floatingSeatsFullSchema = apiErrorSchema
  .extend({
    seats: z.number().int(),
    holders: z.array(floatingHolderSchema).describe('The machines holding the seats, earliest end first'),
    retry_at: isoDateTimeSchema.describe('When the earliest held seat comes back unless renewed'),
    retry_after_seconds: z.number().int(),
  })
  .meta({ id: 'FloatingSeatsFull' });
export type FloatingSeatsFull = z.infer<typeof floatingSeatsFullSchema>;

/** A checkout's or borrow's 409: all seats held (with the fields above), or the license is not floating. */
export const floatingConflictSchema = floatingSeatsFullSchema
  .partial({ seats: true, holders: true, retry_at: true, retry_after_seconds: true })
  .meta({ id: 'FloatingConflict' });

export const floatingReleaseSchema = z
  .object({ license_id: z.string(), released: z.boolean(), message: z.string() })
  .meta({ id: 'FloatingRelease' });
export type FloatingRelease = z.infer<typeof floatingReleaseSchema>;

/** A license's floating seats now, for its owner, its organisation's administrators and platform administrators. */
export const floatingSeatsSchema = z
  .object({
    license_id: z.string(),
    seats: z.number().int(),
    lease_minutes: z.number().int(),
    max_borrow_days: z.number().int(),
    in_use: z.array(floatingHolderSchema),
  })
  .meta({ id: 'FloatingSeats' });
export type FloatingSeats = z.infer<typeof floatingSeatsSchema>;

export const floatingPeaksQuerySchema = z.object({
  days: z.coerce
    .number()
    .int('Ask for whole days')
    .min(1, 'Ask for at least 1 day')
    .max(MAX_FLOATING_PEAK_DAYS, `Ask for at most ${MAX_FLOATING_PEAK_DAYS} days`)
    .default(30),
});

/** The most seats held at once per UTC day, oldest first; a day without use is 0. */
export const floatingPeaksSchema = z
  .object({
    license_id: z.string(),
    seats: z.number().int(),
    days: z.array(z.object({ day: z.string().describe('YYYY-MM-DD (UTC)'), peak: z.number().int() })),
  })
  .meta({ id: 'FloatingPeaks' });
export type FloatingPeaks = z.infer<typeof floatingPeaksSchema>;

/**
 * A member's machine asks for a seat of the organisation's floating pool, signed in: no key is
 * typed, the hardware id says which machine.
 */
export const floatingMemberCheckoutRequestSchema = z
  .strictObject({ hardware_id: hardwareIdSchema, device_name: displayText(100).optional() })
  .meta({ id: 'FloatingMemberCheckoutRequest' });
export type FloatingMemberCheckoutRequest = z.infer<typeof floatingMemberCheckoutRequestSchema>;

/** The seat a member's machine took, with the machine's own key for its later calls. */
export const floatingMemberSeatSchema = floatingSeatAnswerSchema
  .extend({
    seat_key: z
      .string()
      .describe(
        'This machine’s own key for the floating routes and the license check (never the organization’s key); it works only with this hardware id, and each sign-in checkout gives a fresh one',
      ),
    organisation_id: z.string(),
    organisation_name: z.string(),
  })
  .meta({ id: 'FloatingMemberSeat' });
export type FloatingMemberSeat = z.infer<typeof floatingMemberSeatSchema>;

export const floatingSeatParamsSchema = idParamsSchema.extend({ seatId: recordIdSchema });
