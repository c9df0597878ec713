import { z } from 'zod';
import { fingerprintComponentsSchema } from '../fingerprint.js';
import { isoDateTimeSchema } from './common.js';
import { DOWNLOAD_PLATFORMS, hardwareIdSchema, licenseKeyInputSchema } from './licenses.js';

/** Stable releases reach every machine; beta machines get beta releases and stable ones, the newer. */
export const RELEASE_CHANNELS = ['stable', 'beta'] as const;
export type ReleaseChannel = (typeof RELEASE_CHANNELS)[number];

/**
 * The name electron-builder gives a channel's files (`latest.yml`, `beta-mac.yml`…), which is what
 * electron-updater asks for: the stable channel is electron-builder's `latest`.
 */
export const CHANNEL_FILE_PREFIX: Record<ReleaseChannel, string> = { stable: 'latest', beta: 'beta' };

/** A version as published: what electron-builder puts in `package.json` (1.2.3, 2.0.0-beta.1). */
export const releaseVersionSchema = z
  .string()
  .regex(/^[0-9A-Za-z][0-9A-Za-z.+-]{0,39}$/, 'Version must look like 1.2.3');

export const updateCheckRequestSchema = z
  .strictObject({
    license_key: licenseKeyInputSchema,
    hardware_id: hardwareIdSchema,
    platform: z.enum(DOWNLOAD_PLATFORMS),
    current_version: releaseVersionSchema
      .optional()
      .describe('The version the app runs: counted as an install of that release'),
    components: fingerprintComponentsSchema
      .optional()
      .describe(
        "The machine's hashed fingerprint components, as the license check takes them: the machine is " +
          'known as the check knows it (a reinstalled one keeps its seat, a cloned one is another machine)',
      ),
  })
  .meta({ id: 'UpdateCheckRequest' });
export type UpdateCheckRequest = z.infer<typeof updateCheckRequestSchema>;

export const updateCheckResponseSchema = z
  .object({
    feed_url: z
      .string()
      .describe(
        "electron-updater's generic provider URL (`setFeedURL({ provider: 'generic', url, channel })`); " +
          'it serves `latest*.yml` and `beta*.yml` and the files they name until feed_expires_at',
      ),
    feed_expires_at: isoDateTimeSchema,
    updates_until: isoDateTimeSchema
      .optional()
      .describe('A perpetual license: the feed offers only releases published before this moment'),
    update_window_ended: z.boolean().optional().describe('A perpetual license whose update window has ended'),
    covered_version: z
      .string()
      .nullable()
      .optional()
      .describe(
        'Once the window ended: the newest version it covers (null when none was released inside it)',
      ),
  })
  .meta({ id: 'UpdateCheckResponse' });
export type UpdateCheckResponse = z.infer<typeof updateCheckResponseSchema>;

export const RELEASE_STATES = ['live', 'rolling_out', 'paused', 'yanked', 'not_updatable'] as const;

export const adminReleaseSchema = z
  .object({
    id: z.string(),
    platform: z.enum(DOWNLOAD_PLATFORMS),
    channel: z.enum(RELEASE_CHANNELS),
    version: z.string(),
    file_name: z.string(),
    size_bytes: z.number().int(),
    sha256: z.string(),
    sha512: z.string().nullable().describe('Null for a release published before updates: never offered'),
    rollout_percent: z.number().int(),
    state: z
      .enum(RELEASE_STATES)
      .describe('yanked, else paused, else rolling_out below 100 %; not_updatable without a SHA-512'),
    paused_at: isoDateTimeSchema.nullable(),
    yanked_at: isoDateTimeSchema.nullable(),
    release_notes: z.string(),
    checks: z.number().int().describe('Update checks from machines running this release'),
    downloads: z.number().int().describe('Downloads of the file through the update feed'),
    installs: z.number().int().describe('Machines that reported running this release'),
    published_at: isoDateTimeSchema,
  })
  .meta({ id: 'AdminRelease' });
export type AdminRelease = z.infer<typeof adminReleaseSchema>;

export const adminReleaseListQuerySchema = z.object({
  platform: z.enum(DOWNLOAD_PLATFORMS).optional(),
  channel: z.enum(RELEASE_CHANNELS).optional(),
});

export const adminReleaseListSchema = z
  .object({ releases: z.array(adminReleaseSchema).describe('By platform, channel, newest first') })
  .meta({ id: 'AdminReleaseList' });
export type AdminReleaseList = z.infer<typeof adminReleaseListSchema>;

export const MAX_RELEASE_NOTES = 10_000;

export const releaseNotesSchema = z
  .string()
  .max(MAX_RELEASE_NOTES, `Release notes must be at most ${MAX_RELEASE_NOTES} characters`);

export const adminUpdateReleaseBodySchema = z
  .strictObject({
    rollout_percent: z
      .number()
      .int()
      .min(0)
      .max(100)
      .optional()
      .describe('Only raised: a machine let in is never sent back (pause the release instead)'),
    paused: z.boolean().optional().describe('A paused release is offered to no new machine'),
    yanked: z
      .literal(true)
      .optional()
      .describe('Withdraws the release for good: machines on it are offered the previous good one'),
    release_notes: releaseNotesSchema.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'Give at least one of rollout_percent, paused, yanked, release_notes',
  })
  .meta({ id: 'AdminUpdateReleaseBody' });
export type AdminUpdateReleaseBody = z.infer<typeof adminUpdateReleaseBodySchema>;
