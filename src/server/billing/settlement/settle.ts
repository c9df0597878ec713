import type { DbOrTransaction } from '../../platform/db/database.js';
import { type OrderCharge, type OrderSettlement, settleOrder } from './order.js';
import { type SeatCharge, type SeatSettlement, settleSeats } from './seats.js';
import type { SettlementDeps } from './steps.js';
import { type CycleCharge, type CycleSettlement, settleCycle } from './subscription-cycle.js';

export type { ChargeRows } from './steps.js';
export type { CycleCharge, CycleSettlement, OrderCharge, OrderSettlement, SeatCharge, SeatSettlement };

/** Every charge billing settles paid: a subscription's cycle, a one-off order, seats added. */
export type Charge = CycleCharge | OrderCharge | SeatCharge;

/**
 * The one way money is settled, whoever reports it (checkout verify, the provider's webhooks, the
 * sandbox's renewals, a plan change, a seat purchase). Each settling runs in the caller's
 * transaction on the rows the caller already holds: it claims the charge's payment once, grants
 * through licensing's one call for it (`grantPeriod` for time, `setSeats` for seats), and ends in
 * the same step for every kind: the payment's invoice, and the payment announced paid.
 */
export function createSettlement(deps: SettlementDeps) {
  function settle(trx: DbOrTransaction, charge: CycleCharge): Promise<CycleSettlement>;
  function settle(trx: DbOrTransaction, charge: OrderCharge): Promise<OrderSettlement>;
  function settle(trx: DbOrTransaction, charge: SeatCharge): Promise<SeatSettlement>;
  function settle(
    trx: DbOrTransaction,
    charge: Charge,
  ): Promise<CycleSettlement | OrderSettlement | SeatSettlement> {
    switch (charge.kind) {
      case 'cycle':
        return settleCycle(trx, deps, charge);
      case 'order':
        return settleOrder(trx, deps, charge);
      case 'seats':
        return settleSeats(trx, deps, charge);
    }
  }
  return { settle };
}

export type Settlement = ReturnType<typeof createSettlement>;
