import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { PaymentConfig } from '../../../../shared/api/payments';
import type { Plan } from '../../../../shared/api/plans';
import { CHECKOUT_PARAMS } from '../plans';
import { isRecurringPlan } from './use-subscribe';

type RecurringPlan = Plan & { billing_interval: 'month' | 'year' };

export interface CheckoutLinkHandlers {
  /** A seat-based plan: its organisation and seats are asked first. */
  buyForOrganisation(plan: RecurringPlan): void;
  /** A monthly or yearly plan. */
  subscribe(plan: Plan, config: PaymentConfig): void;
  /** A lifetime plan (one payment). */
  buy(plan: Plan, config: PaymentConfig): void;
  /** The organisation the link names, to be chosen in the seat-based plan's dialog. */
  chooseOrganisation(organisationId: string): void;
}

/**
 * The purchase screen reached through a checkout link (`checkoutPath`: the landing page's "Get
 * started" after signing in, an organisation's "Buy the Business plan"): once the plans are there,
 * the linked plan's checkout opens, as if its button had been pressed, and the link's parameters
 * leave the address so a reload does not open it again. `offered` are the plans the page sells to
 * this user now; a plan not among them (owned, subscribed, another currency) opens nothing, and its
 * card says why. With an organisation and no plan, the one seat-based plan on sale is meant.
 */
export function useCheckoutLink(
  catalogue: { offered: Plan[]; config: PaymentConfig } | null,
  handlers: CheckoutLinkHandlers,
): void {
  const [params, setParams] = useSearchParams();
  const planId = params.get(CHECKOUT_PARAMS.plan);
  const organisationId = params.get(CHECKOUT_PARAMS.organisation);
  // Read when the plans are there, so the effect runs once for them, not on each new object.
  const latest = useRef({ catalogue, handlers });
  latest.current = { catalogue, handlers };
  const ready = catalogue !== null;
  // A link is followed once, even when the effect runs again before the address has changed.
  const followed = useRef<string | null>(null);

  useEffect(() => {
    const { catalogue, handlers: act } = latest.current;
    if (!ready || !catalogue || (!planId && !organisationId)) return;
    const link = `${planId ?? ''}/${organisationId ?? ''}`;
    if (followed.current === link) return;
    followed.current = link;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(CHECKOUT_PARAMS.plan);
        next.delete(CHECKOUT_PARAMS.organisation);
        return next;
      },
      { replace: true },
    );
    const { offered, config } = catalogue;
    const seatPlans = offered.filter((plan) => plan.seat_based && isRecurringPlan(plan));
    const plan = planId
      ? offered.find((candidate) => candidate.id === planId)
      : seatPlans.length === 1
        ? seatPlans[0]
        : undefined;
    if (organisationId) act.chooseOrganisation(organisationId);
    if (!plan) return;
    if (isRecurringPlan(plan) && plan.seat_based) act.buyForOrganisation(plan as RecurringPlan);
    else if (isRecurringPlan(plan)) act.subscribe(plan, config);
    else act.buy(plan, config);
  }, [ready, planId, organisationId, setParams]);
}
