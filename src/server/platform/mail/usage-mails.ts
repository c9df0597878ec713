import { composeMail } from './compose.js';
import { greeting, keyEnding, type MailRecipient, type Moment } from './customer-mails.js';
import { formatCount, formatDate, formatMoney, formatPercent } from './formatting.js';
import type { MailMessage } from './message.js';
import { type MailI18n, mailI18n } from './mail-i18n.js';
import { unsubscribeReason } from './preferences.js';
import { mailKinds } from './templates.js';

/** A metered feature's allowance as its mail tells it: how much is used, and what happens past it. */
export interface AllowanceMail extends MailRecipient {
  licenseKey: string;
  featureName: string;
  unit: string | null;
  period: 'day' | 'month';
  used: number;
  limit: number;
  resetsAt: Moment;
  /** Past the allowance: stop; or billed, `priceMinor` per `perUnits` units in `currency`, up to `cap` more. */
  overage:
    | { policy: 'stop' }
    | { policy: 'bill' | 'cap'; priceMinor: number; perUnits: number; currency: string; cap: number | null };
  reached: boolean;
  usageUrl: string;
  unsubscribeUrl: string;
}

/** What happens once the allowance is used up, in one sentence. */
function pastTheAllowance(input: AllowanceMail, unit: string, i18n: MailI18n): string {
  const { overage } = input;
  const feature = input.featureName;
  const resets = formatDate(input.resetsAt, i18n.locale);
  if (overage.policy === 'stop')
    return input.reached
      ? i18n._(
          {
            id: 'mail.allowance.stopped',
            message: '{feature} stops on your machines until the allowance resets on {date}.',
          },
          { feature, date: resets },
        )
      : i18n._(
          {
            id: 'mail.allowance.stops',
            message:
              'Once it is used up, {feature} stops on your machines until the allowance resets on {date}.',
          },
          { feature, date: resets },
        );
  const price = i18n._(
    { id: 'mail.allowance.price', message: '{price} per {units} {unit}' },
    {
      price: formatMoney(overage.priceMinor, overage.currency, i18n.locale),
      units: formatCount(overage.perUnits, i18n.locale),
      unit,
    },
  );
  if (overage.policy === 'cap' && overage.cap !== null)
    return i18n._(
      {
        id: 'mail.allowance.capped',
        message:
          'Up to {cap} {unit} more can be used, billed at {price} with your next renewal; then {feature} stops until {date}.',
      },
      { cap: formatCount(overage.cap, i18n.locale), unit, price, feature, date: resets },
    );
  return i18n._(
    {
      id: 'mail.allowance.billed',
      message: 'Use past the allowance carries on and is billed at {price} with your next renewal.',
    },
    { price },
  );
}

/** The subject: how much of the feature is used, today or this month. */
function allowanceSubject(input: AllowanceMail, i18n: MailI18n): string {
  const feature = input.featureName;
  const daily = input.period === 'day';
  if (input.reached)
    return daily
      ? i18n._(
          { id: 'mail.allowance.subjectReachedDay', message: 'You have used all of {feature} today' },
          { feature },
        )
      : i18n._(
          { id: 'mail.allowance.subjectReachedMonth', message: 'You have used all of {feature} this month' },
          { feature },
        );
  const share = formatPercent((input.used / input.limit) * 100, i18n.locale);
  return daily
    ? i18n._(
        { id: 'mail.allowance.subjectWarningDay', message: 'You have used {share} of {feature} today' },
        { share, feature },
      )
    : i18n._(
        {
          id: 'mail.allowance.subjectWarningMonth',
          message: 'You have used {share} of {feature} this month',
        },
        { share, feature },
      );
}

/**
 * Optional (`billing`): a license used 80 % of a metered feature's allowance this period, or all
 * of it; once each per period. Says what is used, when it resets and what happens past it.
 */
export const allowanceMail = (input: AllowanceMail): MailMessage => {
  const i18n = mailI18n(input.language);
  // The unit is the catalog's (data); without one, the mail's own word.
  const unit = input.unit ?? i18n._({ id: 'mail.allowance.units', message: 'units' });
  const used = formatCount(input.used, i18n.locale);
  const limit = formatCount(input.limit, i18n.locale);
  const date = formatDate(input.resetsAt, i18n.locale);
  const values = {
    key: keyEnding(input.licenseKey, i18n),
    used,
    limit,
    unit,
    feature: input.featureName,
    date,
  };
  return composeMail({
    kind: input.reached ? mailKinds.allowanceReached : mailKinds.allowanceWarning,
    to: input.to,
    i18n,
    subject: allowanceSubject(input, i18n),
    content: {
      preview: i18n._(
        { id: 'mail.allowance.preview', message: '{used} of {limit} {unit} used; it resets on {date}.' },
        { used, limit, unit, date },
      ),
      heading: input.reached
        ? i18n._({ id: 'mail.allowance.headingReached', message: 'Your allowance is used up' })
        : i18n._({ id: 'mail.allowance.heading', message: 'Most of your allowance is used' }),
      body: [
        greeting(input.name, i18n),
        {
          paragraph:
            input.period === 'day'
              ? i18n._(
                  {
                    id: 'mail.allowance.bodyDay',
                    message:
                      'License {key} has used {used} of its {limit} {unit} of {feature} today. The allowance resets on {date}.',
                  },
                  values,
                )
              : i18n._(
                  {
                    id: 'mail.allowance.bodyMonth',
                    message:
                      'License {key} has used {used} of its {limit} {unit} of {feature} this month. The allowance resets on {date}.',
                  },
                  values,
                ),
        },
        { paragraph: pastTheAllowance(input, unit, i18n) },
      ],
      action: {
        label: i18n._({ id: 'mail.allowance.action', message: 'See your usage' }),
        url: input.usageUrl,
      },
    },
    unsubscribe: { url: input.unsubscribeUrl, reason: unsubscribeReason(i18n, 'billing') },
  });
};
