import type { DbOrTransaction } from '../../platform/db/database.js';
import { findPlanRow } from '../../catalogue/index.js';

/**
 * The currency a license's overage prices are in: its plan's. A usage read carries it so the
 * portal can write the projected overage as money without a second read of the plan.
 */
export async function planCurrency(db: DbOrTransaction, planId: string): Promise<string> {
  const plan = await findPlanRow(db, planId);
  // A license's plan is never deleted (licenses hold it); INR is the catalogue's own default.
  return plan?.currency ?? 'INR';
}
