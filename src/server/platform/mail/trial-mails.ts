import { composeMail } from './compose.js';
import { greeting, keyEnding, type MailRecipient, type Moment } from './customer-mails.js';
import { formatDate, formatDateTime, formatMoney } from './formatting.js';
import type { MailMessage } from './message.js';
import { type MailI18n, mailI18n } from './mail-i18n.js';
import { unsubscribeReason } from './preferences.js';
import { mailKinds } from './templates.js';

/** What a free trial's mail names: the plan, the license and where to buy it. */
interface TrialMail extends MailRecipient {
  planName: string;
  licenseKey: string;
  endsAt: Moment;
  buyUrl: string;
}

const whatStays = (i18n: MailI18n) =>
  i18n._({
    id: 'mail.trial.whatStays',
    message: 'Your license key, activated machines and usage stay as they are when you buy.',
  });

/** "Your free trial of Pro (license ending in 12345) ends on …", the opening every trial mail shares. */
const trialEnds = (input: TrialMail, i18n: MailI18n) =>
  i18n._(
    {
      id: 'mail.trial.endsOn',
      message: 'Your free trial of {plan} (license {key}) ends on {moment}.',
    },
    {
      plan: input.planName,
      key: keyEnding(input.licenseKey, i18n),
      moment: formatDateTime(input.endsAt, i18n.locale),
    },
  );

const trialEndingHeading = (lastDay: boolean, i18n: MailI18n) =>
  lastDay
    ? i18n._({ id: 'mail.trialEnding.headingToday', message: 'Your free trial ends today' })
    : i18n._({ id: 'mail.trialEnding.heading', message: 'Your free trial ends soon' });

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
  const i18n = mailI18n(input.language);
  const plan = input.planName;
  const amount = formatMoney(input.charge.amountMinor, input.charge.currency, i18n.locale);
  return composeMail({
    kind: mailKinds.trialEnding,
    to: input.to,
    i18n,
    subject: input.lastDay
      ? i18n._(
          {
            id: 'mail.cardTrialEnding.subjectToday',
            message: 'Your card will be charged {amount} for {plan} today',
          },
          { amount, plan },
        )
      : i18n._(
          {
            id: 'mail.cardTrialEnding.subject',
            message: 'Your card will be charged {amount} for {plan} on {date}',
          },
          { amount, plan, date: formatDate(input.charge.at, i18n.locale) },
        ),
    content: {
      preview: i18n._(
        {
          id: 'mail.cardTrialEnding.preview',
          message: 'Your free trial of {plan} ends on {date}, and your subscription starts.',
        },
        { plan, date: formatDate(input.endsAt, i18n.locale) },
      ),
      heading: trialEndingHeading(input.lastDay, i18n),
      body: [
        greeting(input.name, i18n),
        { paragraph: trialEnds(input, i18n) },
        {
          paragraph: `${i18n._(
            {
              id: 'mail.cardTrialEnding.next',
              message:
                'What happens next: your card will be charged {amount} on {moment}, the first charge of your subscription, and the license carries on without a break.',
            },
            { amount, moment: formatDateTime(input.charge.at, i18n.locale) },
          )} ${whatStays(i18n)}`,
        },
        {
          paragraph: i18n._({
            id: 'mail.cardTrialEnding.cancel',
            message:
              'Don’t want to keep it? Cancel the subscription on the Subscriptions page before then: nothing is charged, and the trial runs to its end.',
          }),
        },
      ],
      action: {
        label: i18n._({ id: 'mail.action.manageSubscription', message: 'Manage subscription' }),
        url: input.charge.manageUrl,
      },
    },
    unsubscribe: { url: input.unsubscribeUrl, reason: unsubscribeReason(i18n, 'billing') },
  });
};

const freeTrialEndingMail = (
  input: TrialMail & { lastDay: boolean; unsubscribeUrl: string },
): MailMessage => {
  const i18n = mailI18n(input.language);
  const plan = input.planName;
  const date = formatDate(input.endsAt, i18n.locale);
  return composeMail({
    kind: mailKinds.trialEnding,
    to: input.to,
    i18n,
    subject: input.lastDay
      ? i18n._(
          { id: 'mail.trialEnding.subjectToday', message: 'Your free trial of {plan} ends today' },
          { plan },
        )
      : i18n._(
          { id: 'mail.trialEnding.subject', message: 'Your free trial of {plan} ends on {date}' },
          { plan, date },
        ),
    content: {
      preview: i18n._(
        {
          id: 'mail.trialEnding.preview',
          message: 'Buy {plan} before {date} to keep using it without a break.',
        },
        { plan, date },
      ),
      heading: trialEndingHeading(input.lastDay, i18n),
      body: [
        greeting(input.name, i18n),
        { paragraph: trialEnds(input, i18n) },
        {
          paragraph: `${i18n._(
            {
              id: 'mail.trialEnding.next',
              message:
                'What happens next: you gave no card, so nothing will be charged. At the end of the trial the app stops working on your machines until you buy {plan}.',
            },
            { plan },
          )} ${whatStays(i18n)}`,
        },
      ],
      action: { label: i18n._({ id: 'mail.action.buyNow', message: 'Buy now' }), url: input.buyUrl },
    },
    unsubscribe: { url: input.unsubscribeUrl, reason: unsubscribeReason(i18n, 'billing') },
  });
};

/** A free trial ended unpaid: the license is `trial_expired` until the plan is bought. */
export const trialExpiredMail = (input: TrialMail): MailMessage => {
  const i18n = mailI18n(input.language);
  const plan = input.planName;
  return composeMail({
    kind: mailKinds.trialExpired,
    to: input.to,
    i18n,
    subject: i18n._(
      { id: 'mail.trialExpired.subject', message: 'Your free trial of {plan} has ended' },
      { plan },
    ),
    content: {
      preview: i18n._(
        { id: 'mail.trialExpired.preview', message: 'It ended on {date}. Buy {plan} to keep using it.' },
        { date: formatDate(input.endsAt, i18n.locale), plan },
      ),
      heading: i18n._({ id: 'mail.trialExpired.heading', message: 'Your free trial has ended' }),
      body: [
        greeting(input.name, i18n),
        {
          paragraph: i18n._(
            {
              id: 'mail.trialExpired.body',
              message:
                'Your free trial of {plan} (license {key}) ended on {moment}. Its features are no longer available on your machines, and nothing was charged.',
            },
            {
              plan,
              key: keyEnding(input.licenseKey, i18n),
              moment: formatDateTime(input.endsAt, i18n.locale),
            },
          ),
        },
        {
          paragraph: `${i18n._(
            { id: 'mail.trialExpired.buy', message: 'Buy {plan} to continue.' },
            { plan },
          )} ${whatStays(i18n)}`,
        },
      ],
      action: { label: i18n._({ id: 'mail.action.buyNow', message: 'Buy now' }), url: input.buyUrl },
    },
  });
};
