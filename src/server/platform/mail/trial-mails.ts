import { composeMail } from './compose.js';
import { greeting, keyEnding, type MailRecipient, type Moment } from './customer-mails.js';
import { formatDate, formatDateTime, formatMoney } from './formatting.js';
import type { MailMessage } from './message.js';
import { mailI18n } from './mail-i18n.js';
import { unsubscribeReason } from './preferences.js';
import { mailKinds } from './templates.js';

/** What a free trial's mail names: the plan, the license and where to buy it. */
interface TrialMail extends MailRecipient {
  planName: string;
  licenseKey: string;
  endsAt: Moment;
  buyUrl: string;
}

const whatStays = 'Your license key, activated machines and usage stay as they are when you buy.';

/** A card trial's first charge, which its reminder announces instead of the end. */
export interface TrialFirstCharge {
  amountMinor: number;
  currency: string;
  at: Moment;
  /** Where the subscription is canceled (the Subscriptions page). */
  manageUrl: string;
}

/**
 * Optional (`billing`): a free trial ends soon, three days before and on its last day. It says
 * what happens next: with no card given, nothing is charged and the app stops at the end; a card
 * trial's subscription charges the card (the amount and the moment), unless canceled before.
 */
export const trialEndingMail = (
  input: TrialMail & { lastDay: boolean; unsubscribeUrl: string; charge?: TrialFirstCharge },
): MailMessage =>
  input.charge ? cardTrialEndingMail({ ...input, charge: input.charge }) : freeTrialEndingMail(input);

const cardTrialEndingMail = (
  input: TrialMail & { lastDay: boolean; unsubscribeUrl: string; charge: TrialFirstCharge },
): MailMessage => {
  const amount = formatMoney(input.charge.amountMinor, input.charge.currency);
  return composeMail({
    kind: mailKinds.trialEnding,
    to: input.to,
    subject: input.lastDay
      ? `Your card will be charged ${amount} for ${input.planName} today`
      : `Your card will be charged ${amount} for ${input.planName} on ${formatDate(input.charge.at)}`,
    content: {
      preview: `Your free trial of ${input.planName} ends on ${formatDate(input.endsAt)}, and your subscription starts.`,
      heading: input.lastDay ? 'Your free trial ends today' : 'Your free trial ends soon',
      body: [
        greeting(input.name),
        {
          paragraph: `Your free trial of ${input.planName} (license ${keyEnding(input.licenseKey)}) ends on ${formatDateTime(
            input.endsAt,
          )}.`,
        },
        {
          paragraph: `What happens next: your card will be charged ${amount} on ${formatDateTime(
            input.charge.at,
          )}, the first charge of your subscription, and the license carries on without a break. ${whatStays}`,
        },
        {
          paragraph: `Don't want to keep it? Cancel the subscription on the Subscriptions page before then: nothing is charged, and the trial runs to its end.`,
        },
      ],
      action: { label: 'Manage subscription', url: input.charge.manageUrl },
    },
    unsubscribe: { url: input.unsubscribeUrl, reason: unsubscribeReason(mailI18n(), 'billing') },
  });
};

const freeTrialEndingMail = (input: TrialMail & { lastDay: boolean; unsubscribeUrl: string }): MailMessage =>
  composeMail({
    kind: mailKinds.trialEnding,
    to: input.to,
    subject: input.lastDay
      ? `Your free trial of ${input.planName} ends today`
      : `Your free trial of ${input.planName} ends on ${formatDate(input.endsAt)}`,
    content: {
      preview: `Buy ${input.planName} before ${formatDate(input.endsAt)} to keep using it without a break.`,
      heading: input.lastDay ? 'Your free trial ends today' : 'Your free trial ends soon',
      body: [
        greeting(input.name),
        {
          paragraph: `Your free trial of ${input.planName} (license ${keyEnding(input.licenseKey)}) ends on ${formatDateTime(
            input.endsAt,
          )}.`,
        },
        {
          paragraph: `What happens next: you gave no card, so nothing will be charged. At the end of the trial the app stops working on your machines until you buy ${input.planName}. ${whatStays}`,
        },
      ],
      action: { label: 'Buy now', url: input.buyUrl },
    },
    unsubscribe: { url: input.unsubscribeUrl, reason: unsubscribeReason(mailI18n(), 'billing') },
  });

/** A free trial ended unpaid: the license is `trial_expired` until the plan is bought. */
export const trialExpiredMail = (input: TrialMail): MailMessage =>
  composeMail({
    kind: mailKinds.trialExpired,
    to: input.to,
    subject: `Your free trial of ${input.planName} has ended`,
    content: {
      preview: `It ended on ${formatDate(input.endsAt)}. Buy ${input.planName} to keep using it.`,
      heading: 'Your free trial has ended',
      body: [
        greeting(input.name),
        {
          paragraph: `Your free trial of ${input.planName} (license ${keyEnding(input.licenseKey)}) ended on ${formatDateTime(
            input.endsAt,
          )}. Its features are no longer available on your machines, and nothing was charged.`,
        },
        { paragraph: `Buy ${input.planName} to continue. ${whatStays}` },
      ],
      action: { label: 'Buy now', url: input.buyUrl },
    },
  });
