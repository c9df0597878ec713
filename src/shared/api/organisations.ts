import { z } from 'zod';
import { chargeSummarySchema } from './charges.js';
import { billingDetailsRequestSchema, billingDetailsSchema } from './invoices.js';
import {
  displayText,
  emailSchema,
  isoDateTimeSchema,
  newPasswordSchema,
  opaqueTokenSchema,
} from './common.js';
import { pageQuerySchema, pagedSchema } from './paging.js';

// Organisations with named seats: the contract between the server, the portal and integrators.

export const ORGANISATION_ROLES = ['owner', 'admin', 'member'] as const;
export type OrganisationRole = (typeof ORGANISATION_ROLES)[number];
/** The roles an invitation or a role change may give: ownership only passes by a transfer. */
export const ASSIGNABLE_ORGANISATION_ROLES = ['admin', 'member'] as const;
export type AssignableOrganisationRole = (typeof ASSIGNABLE_ORGANISATION_ROLES)[number];

export const ORGANISATION_NAME_MAX = 100;
/** How long an invitation's link works unless `ORGANISATION_INVITATION_TTL_HOURS` says otherwise. */
export const DEFAULT_INVITATION_TTL_HOURS = 7 * 24;
export const MAX_SEATS = 1000;

export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export const organisationIdSchema = z.uuid('Not an organization id');
export const organisationParamsSchema = z.object({ organisationId: organisationIdSchema });
export const memberParamsSchema = organisationParamsSchema.extend({ userId: z.uuid('Not an account id') });
export const invitationParamsSchema = organisationParamsSchema.extend({
  invitationId: z.uuid('Not an invitation id'),
});

const organisationNameSchema = displayText(ORGANISATION_NAME_MAX).min(1, 'Give the organization a name');

export const createOrganisationBodySchema = z
  .strictObject({
    name: organisationNameSchema,
    billing_details: billingDetailsRequestSchema.optional(),
  })
  .meta({ id: 'CreateOrganisationBody' });
export type CreateOrganisationBody = z.input<typeof createOrganisationBodySchema>;

export const updateOrganisationBodySchema = z
  .strictObject({
    name: organisationNameSchema.optional(),
    billing_details: billingDetailsRequestSchema.optional(),
  })
  .refine((body) => body.name !== undefined || body.billing_details !== undefined, 'Nothing to change')
  .meta({ id: 'UpdateOrganisationBody' });
export type UpdateOrganisationBody = z.input<typeof updateOrganisationBodySchema>;

/** The organisation's seats: bought on its license, and held by members. Null before it buys any. */
export const organisationSeatsSchema = z
  .object({
    bought: z.number().int(),
    assigned: z.number().int(),
    /** Invitations still pending: each will take a seat when accepted. */
    pending_invitations: z.number().int(),
    machines_per_seat: z.number().int(),
    floating: z
      .object({
        concurrent: z
          .number()
          .int()
          .describe('Machines of its members that may run at once: the seats bought'),
        lease_minutes: z.number().int(),
        max_borrow_days: z.number().int(),
      })
      .nullable()
      .describe(
        'On a floating plan: members need no named seat, and any of their machines runs while one of the seats bought is free; null for named seats',
      ),
  })
  .meta({ id: 'OrganisationSeats' });
export type OrganisationSeats = z.infer<typeof organisationSeatsSchema>;

export const organisationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    /** The caller's role; null for a platform administrator who is not a member. */
    role: z.enum(ORGANISATION_ROLES).nullable(),
    members_count: z.number().int(),
    seats: organisationSeatsSchema.nullable(),
    license_id: z.string().nullable().describe('The organization’s seat-based license, once bought'),
    subscription_id: z.string().nullable(),
    billing_details: billingDetailsSchema.nullable(),
    created_at: isoDateTimeSchema,
    updated_at: isoDateTimeSchema,
  })
  .meta({ id: 'Organisation' });
export type Organisation = z.infer<typeof organisationSchema>;

export const organisationListSchema = z.array(organisationSchema).meta({ id: 'OrganisationList' });

/** A member's machine on their seat, as the organisation's owner and admins see it. */
export const seatMachineSchema = z
  .object({
    activation_id: z.string(),
    device_name: z.string().nullable(),
    label: z.string().nullable(),
    platform: z.string().nullable(),
    activated_at: isoDateTimeSchema,
    last_seen_at: isoDateTimeSchema,
  })
  .meta({ id: 'SeatMachine' });

export const organisationMemberSchema = z
  .object({
    user_id: z.string(),
    email: z.string(),
    full_name: z.string().nullable(),
    role: z.enum(ORGANISATION_ROLES),
    has_seat: z.boolean(),
    seat_assigned_at: isoDateTimeSchema.nullable(),
    joined_at: isoDateTimeSchema,
    machines: z.array(seatMachineSchema).describe('Active machines on the member’s seat'),
  })
  .meta({ id: 'OrganisationMember' });
export type OrganisationMember = z.infer<typeof organisationMemberSchema>;

export const organisationMemberListSchema = z
  .array(organisationMemberSchema)
  .meta({ id: 'OrganisationMemberList' });

export const changeMemberRoleBodySchema = z
  .strictObject({ role: z.enum(ASSIGNABLE_ORGANISATION_ROLES, 'Choose admin or member') })
  .meta({ id: 'ChangeMemberRoleBody' });

export const transferOwnershipBodySchema = z
  .strictObject({ user_id: z.uuid('Choose a member') })
  .meta({ id: 'TransferOwnershipBody' });

export const inviteMemberBodySchema = z
  .strictObject({
    email: emailSchema,
    role: z.enum(ASSIGNABLE_ORGANISATION_ROLES, 'Choose admin or member').default('member'),
  })
  .meta({ id: 'InviteMemberBody' });
export type InviteMemberBody = z.input<typeof inviteMemberBodySchema>;

export const invitationSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: z.enum(ASSIGNABLE_ORGANISATION_ROLES),
    status: z.enum(INVITATION_STATUSES),
    invited_by_email: z.string().nullable(),
    created_at: isoDateTimeSchema,
    sent_at: isoDateTimeSchema,
    expires_at: isoDateTimeSchema,
    accepted_at: isoDateTimeSchema.nullable(),
  })
  .meta({ id: 'OrganisationInvitation' });
export type Invitation = z.infer<typeof invitationSchema>;

export const invitationListSchema = z.array(invitationSchema).meta({ id: 'OrganisationInvitationList' });

/** The link's token, as the invitation mail gives it (`/invitations/accept#token=…`). */
export const invitationTokenBodySchema = z
  .strictObject({ token: opaqueTokenSchema })
  .meta({ id: 'InvitationTokenBody' });

/** What the invitation page shows before anyone accepts: open to anyone holding the link. */
export const invitationPreviewSchema = z
  .object({
    organisation_name: z.string(),
    email: z.string(),
    role: z.enum(ASSIGNABLE_ORGANISATION_ROLES),
    invited_by: z.string().nullable().describe('The inviter’s name or e-mail'),
    expires_at: isoDateTimeSchema,
    account_exists: z.boolean().describe('Whether the invitee signs in (true) or creates an account'),
  })
  .meta({ id: 'InvitationPreview' });
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** An invitee without an account creates one from the link: the link proves the address. */
export const invitationSignUpBodySchema = z
  .strictObject({
    token: opaqueTokenSchema,
    password: newPasswordSchema,
    full_name: displayText(100).optional(),
  })
  .meta({ id: 'InvitationSignUpBody' });

export const acceptedInvitationSchema = z
  .object({ organisation: organisationSchema, message: z.string() })
  .meta({ id: 'AcceptedInvitation' });

/** Buying seats: the new total, quoted first and then confirmed with the same body. */
export const seatChangeBodySchema = z
  .strictObject({
    seats: z
      .number('Enter a number of seats')
      .int('Whole seats')
      .min(1, 'At least one seat')
      .max(MAX_SEATS, `At most ${MAX_SEATS} seats`),
  })
  .meta({ id: 'SeatChangeBody' });
export type SeatChangeBody = z.infer<typeof seatChangeBodySchema>;

export const seatQuoteSchema = z
  .object({
    seats_from: z.number().int(),
    seats_to: z.number().int(),
    currency: z.string(),
    per_seat_minor: z.number().int().describe('One seat for a whole billing period'),
    due_now_minor: z.number().int().describe('Charged now for the rest of the current period (prorated)'),
    next_charge_minor: z.number().int().describe('Each later period, for every seat'),
    period_end: isoDateTimeSchema.nullable(),
  })
  .meta({ id: 'SeatQuote' });
export type SeatQuote = z.infer<typeof seatQuoteSchema>;

/** A seat purchase's answer: the organisation with its new seats, and what the seats added charged today. */
export const seatPurchaseSchema = organisationSchema
  .extend({
    charge: chargeSummarySchema
      .nullable()
      .describe(
        'What the seats added charged today (prorated), as its invoice says; null when nothing was due',
      ),
  })
  .meta({ id: 'SeatPurchase' });
export type SeatPurchase = z.infer<typeof seatPurchaseSchema>;

/** `search` matches part of the name or of a member's e-mail. */
export const adminOrganisationListQuerySchema = pageQuerySchema(['created_at', 'name']);

export const adminOrganisationSummarySchema = organisationSchema
  .extend({ owner_email: z.string().nullable() })
  .meta({ id: 'AdminOrganisationSummary' });

export const adminOrganisationListSchema = pagedSchema(adminOrganisationSummarySchema).meta({
  id: 'AdminOrganisationList',
});

export const adminOrganisationDetailSchema = adminOrganisationSummarySchema
  .extend({
    members: z.array(organisationMemberSchema),
    invitations: z.array(invitationSchema),
    subscription: z
      .object({
        id: z.string(),
        status: z.string(),
        plan_name: z.string(),
        seats: z.number().int(),
        current_period_end: isoDateTimeSchema.nullable(),
      })
      .nullable(),
  })
  .meta({ id: 'AdminOrganisationDetail' });

/** Named on a team member's license check and lease: whose seat this machine runs on. */
export const seatHolderSchema = z
  .object({
    organisation_id: z.string(),
    organisation_name: z.string(),
    user_id: z.string().describe('The member holding the seat this machine is activated on'),
  })
  .meta({ id: 'SeatHolder' });
export type SeatHolder = z.infer<typeof seatHolderSchema>;
