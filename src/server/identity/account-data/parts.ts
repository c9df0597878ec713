import type { DbOrTransaction } from '../../platform/db/database.js';
import type { HttpError } from '../../platform/http-error.js';
import type { ExportFile } from './archive.js';

/**
 * What the contexts above identity hold of an account, given at composition (the root's
 * `account-data.ts`, through their `index.ts`): identity builds the export and runs the deletion,
 * the others answer for their own rows.
 */
export interface AccountDataParts {
  /** Each context's files of the export, in the order the archive is built (the progress counts them). */
  sections: readonly { name: string; collect(db: DbOrTransaction, userId: string): Promise<ExportFile[]> }[];
  /** Why the account may not be deleted yet (an organisation it owns), or nothing. */
  deletionBlockers: readonly ((db: DbOrTransaction, userId: string) => Promise<HttpError | undefined>)[];
}

export const noAccountDataParts: AccountDataParts = { sections: [], deletionBlockers: [] };
