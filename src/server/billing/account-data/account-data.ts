import type { ExportFile } from '../../identity/index.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { invoicePdfBytes } from '../invoices/attachment.js';
import { findInvoice, toInvoice } from '../invoices/repository.js';
import { LIVE } from '../subscriptions/refusals.js';
import {
  allSubscriptionsOfUser,
  deleteBillingDetailsOfUser,
  endSubscriptionsOfUser,
  invoiceIdsOfUser,
  paymentsOfUser,
} from './repository.js';

/**
 * What billing holds of an account, for the account's data export: payments, subscriptions and
 * the invoices and credit notes as issued, each with its PDF.
 */
export async function billingDataOfUser(db: DbOrTransaction, userId: string) {
  const [payments, subscriptions, invoiceIds] = await Promise.all([
    paymentsOfUser(db, userId),
    allSubscriptionsOfUser(db, userId),
    invoiceIdsOfUser(db, userId),
  ]);
  const invoices = [];
  const files: ExportFile[] = [];
  for (const { id, number } of invoiceIds) {
    const row = await findInvoice(db, id);
    if (!row) continue;
    invoices.push(toInvoice(row));
    files.push({ name: `invoices/${number}.pdf`, bytes: await invoicePdfBytes(db, id) });
  }
  return { data: { payments, subscriptions, invoices }, files };
}

/**
 * Billing's part of an account's erasure, heard on identity's `account.erasing`: its live
 * subscriptions end now and charge no more, and its billing address goes. Payments, invoices and
 * credit notes stay as they were issued, with the buyer's details they carry.
 */
export async function endBillingOfErasedAccount(trx: DbOrTransaction, userId: string, now: string) {
  await endSubscriptionsOfUser(trx, userId, LIVE, now);
  await deleteBillingDetailsOfUser(trx, userId);
}
