import { z } from 'zod';
import { RELEASE_CHANNELS, type ReleaseChannel } from '../shared/api/distribution.js';
import { readJsonFile, writeJsonFile } from './json-file.js';

const settingsSchema = z.object({
  version: z.literal(1),
  channel: z.enum(RELEASE_CHANNELS),
});

export interface UpdateSettingsFile {
  /** The channel the user chose; stable until they choose. */
  channel(): Promise<ReleaseChannel>;
  setChannel(channel: ReleaseChannel): Promise<void>;
}

/** The update channel, in a JSON file of its own under the app's user data (a damaged file reads as stable). */
export function createUpdateSettingsFile(path: string): UpdateSettingsFile {
  return {
    async channel() {
      const parsed = settingsSchema.safeParse(await readJsonFile(path));
      return parsed.success ? parsed.data.channel : 'stable';
    },
    setChannel: (channel) => writeJsonFile(path, { version: 1, channel }),
  };
}
