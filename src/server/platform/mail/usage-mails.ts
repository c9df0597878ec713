import { composeMail } from './compose.js';
import { greeting, keyEnding, type MailRecipient, type Moment } from './customer-mails.js';
import { formatDate, formatMoney } from './formatting.js';
import type { MailMessage } from './message.js';
import { mailI18n } from './mail-i18n.js';
import { unsubscribeReason } from './preferences.js';
import { mailKinds } from './templates.js';

const numberFormat = new Intl.NumberFormat('en-US');
const count = (value: number) => numberFormat.format(value);

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
function pastTheAllowance(input: AllowanceMail, unit: string): string {
  const { overage } = input;
  const resets = formatDate(input.resetsAt);
  if (overage.policy === 'stop')
    return input.reached
      ? `${input.featureName} stops on your machines until the allowance resets on ${resets}.`
      : `Once it is used up, ${input.featureName} stops on your machines until the allowance resets on ${resets}.`;
  const price = `${formatMoney(overage.priceMinor, overage.currency)} per ${count(overage.perUnits)} ${unit}`;
  if (overage.policy === 'cap' && overage.cap !== null)
    return `Up to ${count(overage.cap)} ${unit} more can be used, billed at ${price} with your next renewal; then ${input.featureName} stops until ${resets}.`;
  return `Use past the allowance carries on and is billed at ${price} with your next renewal.`;
}

/**
 * Optional (`billing`): a license used 80 % of a metered feature's allowance this period, or all
 * of it; once each per period. Says what is used, when it resets and what happens past it.
 */
export const allowanceMail = (input: AllowanceMail): MailMessage => {
  const unit = input.unit ?? 'units';
  const when = input.period === 'day' ? 'today' : 'this month';
  const share = input.reached ? 'all' : `${Math.floor((input.used / input.limit) * 100)}%`;
  return composeMail({
    kind: input.reached ? mailKinds.allowanceReached : mailKinds.allowanceWarning,
    to: input.to,
    subject: input.reached
      ? `You have used all of ${input.featureName} ${when}`
      : `You have used ${share} of ${input.featureName} ${when}`,
    content: {
      preview: `${count(input.used)} of ${count(input.limit)} ${unit} used; it resets on ${formatDate(input.resetsAt)}.`,
      heading: input.reached ? 'Your allowance is used up' : 'Most of your allowance is used',
      body: [
        greeting(input.name),
        {
          paragraph: `License ${keyEnding(input.licenseKey)} has used ${count(input.used)} of its ${count(input.limit)} ${unit} of ${input.featureName} ${when}. The allowance resets on ${formatDate(input.resetsAt)}.`,
        },
        { paragraph: pastTheAllowance(input, unit) },
      ],
      action: { label: 'See your usage', url: input.usageUrl },
    },
    unsubscribe: { url: input.unsubscribeUrl, reason: unsubscribeReason(mailI18n(), 'billing') },
  });
};
