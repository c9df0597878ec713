import { t } from '@lingui/core/macro';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { useCallback, useEffect, useState } from 'react';
import { type CouponPreview, couponCodeSchema } from '../../../../shared/api/coupons';
import type { Plan } from '../../../../shared/api/plans';
import { failureMessage } from '../../lib/api-errors';
import { type CouponPreviewRequest, paymentMessages, usePreviewCouponQuery } from './payments-endpoints';
import { knownText } from '../../lib/i18n/portal-i18n';

/** A coupon the server accepted on one plan: what its checkout is opened with. */
export interface AppliedCoupon {
  planId: string;
  preview: CouponPreview;
}

export interface CouponField {
  /** The field is shown ("I have a coupon" was pressed). */
  opened: boolean;
  /** Shows the field, or hides it and lets go of the coupon (back to the full price). */
  setOpened(opened: boolean): void;
  code: string;
  /** Typing another code lets go of the one applied: the price shown is always the field's. */
  setCode(code: string): void;
  /** The plan the coupon is checked on. */
  planId: string | null;
  /** Another plan: an applied code is checked again on it. */
  choosePlan(planId: string): void;
  /** Checks the code on the plan (`POST /coupons/preview`); nothing is redeemed. */
  apply(): void;
  /** Clears the code: every plan is at its full price again. */
  remove(): void;
  /** The checkout refused the applied code after all: back to the full price, the reason by the field. */
  refuse(message: string): void;
  /** The server is checking the code. */
  checking: boolean;
  /** Why the code cannot be used: the field's own check, or the server's refusal. */
  error: string | null;
  applied: AppliedCoupon | null;
  /** The code to open `plan`'s checkout with: only on the plan it was checked on. */
  codeFor(plan: Pick<Plan, 'id'>): string | undefined;
}

/**
 * The Purchase page's coupon: a code checked on one of the plans on sale (`plans`, the first by
 * default). The preview is an RTK Query read of the submitted code and plan, so an answer always
 * belongs to what is asked now; a refusal is the server's message, shown by the field.
 */
export function useCoupon(plans: readonly Pick<Plan, 'id' | 'currency'>[]): CouponField {
  const [opened, setOpenedState] = useState(false);
  const [code, setCodeState] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<CouponPreviewRequest | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  // The chosen plan while it is still on sale, else the first one.
  const planId = plans.some((plan) => plan.id === chosen) ? chosen : (plans[0]?.id ?? null);
  const answer = usePreviewCouponQuery(submitted ?? skipToken);
  // The currency each plan's price is shown in: a coupon is checked on that price.
  const currencyOf = useCallback((id: string) => plans.find((plan) => plan.id === id)?.currency, [plans]);
  // Prices shown in another currency: the coupon applied is checked again on the new price.
  const shownCurrency = submitted ? currencyOf(submitted.plan_id) : undefined;
  useEffect(() => {
    if (submitted && submitted.currency !== shownCurrency)
      setSubmitted({ ...submitted, currency: shownCurrency });
  }, [submitted, shownCurrency]);
  const current =
    submitted !== null && submitted.plan_id === planId && submitted.currency === currencyOf(planId);

  const remove = useCallback(() => {
    setCodeState('');
    setSubmitted(null);
    setInvalid(null);
  }, []);

  const refuse = useCallback((message: string) => {
    setSubmitted(null);
    setInvalid(message);
  }, []);

  const setOpened = useCallback(
    (next: boolean) => {
      setOpenedState(next);
      if (!next) remove();
    },
    [remove],
  );

  const setCode = useCallback((next: string) => {
    setCodeState(next);
    setSubmitted(null);
    setInvalid(null);
  }, []);

  const check = useCallback(
    (onPlan: string | null) => {
      if (onPlan === null) return;
      const parsed = couponCodeSchema.safeParse(code);
      if (!parsed.success) {
        setSubmitted(null);
        const problem = parsed.error.issues[0]?.message;
        setInvalid(problem ? knownText(problem) : t`Enter the coupon code`);
        return;
      }
      setInvalid(null);
      const request = { code: parsed.data, plan_id: onPlan, currency: currencyOf(onPlan) };
      // The same question again (after a refusal, say): ask the server again, not the cache.
      if (
        submitted &&
        submitted.code === request.code &&
        submitted.plan_id === request.plan_id &&
        submitted.currency === request.currency
      )
        void answer.refetch();
      else setSubmitted(request);
    },
    [answer, code, currencyOf, submitted],
  );

  const choosePlan = useCallback(
    (next: string) => {
      setChosen(next);
      if (submitted) setSubmitted({ ...submitted, plan_id: next, currency: currencyOf(next) });
    },
    [currencyOf, submitted],
  );

  const applied: AppliedCoupon | null =
    current && answer.currentData && !answer.isFetching && !answer.isError
      ? { planId: submitted.plan_id, preview: answer.currentData }
      : null;
  const refusal =
    current && answer.isError && !answer.isFetching
      ? failureMessage(answer.error, paymentMessages.previewCouponFailed)
      : null;

  return {
    opened,
    setOpened,
    code,
    setCode,
    planId,
    choosePlan,
    apply: () => check(planId),
    remove,
    refuse,
    checking: current && answer.isFetching,
    error: invalid ?? refusal,
    applied,
    codeFor: (plan) => (applied && applied.planId === plan.id ? applied.preview.code : undefined),
  };
}
