import { plural, t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Stack, Text } from '@mantine/core';
import type { ChargeSummary } from '../../../../../shared/api/charges';
import { QuoteRow } from '../../../components/data/quote-row';
import { formatDate } from '../../../lib/format-date';
import { formatMoney } from '../../../lib/format-money';

const percent = (basisPoints: number) => `${basisPoints / 100}%`;
/** "3 seats × ₹500": the list price times the seats (one seat is just its price). */
const times = (quantity: number, money: string) =>
  quantity === 1 ? money : plural(quantity, { one: `# seat × ${money}`, other: `# seats × ${money}` });

/** "₹799.20 charged today": the sentence a success panel leads with. */
export function chargedTodayText(charge: Pick<ChargeSummary, 'charged_today_minor' | 'currency'>): string {
  const amount = formatMoney(charge.charged_today_minor, charge.currency);
  return t`${amount} charged today`;
}

const couponLabel = (code: string) => t`Coupon ${code}`;
/** "GST 18%", or "Including GST 18%" when the lines' prices include it. */
const taxLabel = (name: string, rate: string, included: boolean) =>
  included ? t`Including ${name} ${rate}` : `${name} ${rate}`;
const nextChargeLine = (amount: string, date: string) => t`Next charge: ${amount} on ${date}.`;

/**
 * What a payment charged, line by line as its invoice has it: the list price (times the seats),
 * the coupon's discount, the price paid per seat after it, the tax (included or added), the total
 * charged today and the next charge. Every success panel shows its charge with this one list.
 */
export function ChargeLines({ charge }: { charge: ChargeSummary }) {
  const { t } = useLingui();
  const money = (minor: number) => formatMoney(minor, charge.currency);
  const discounted = charge.discount !== null;
  return (
    <Stack gap={6}>
      <Stack component="dl" gap={6} m={0} data-testid="charge-lines">
        <QuoteRow label={charge.description}>
          {times(charge.quantity, money(charge.list_price_minor))}
        </QuoteRow>
        {charge.discount ? (
          <QuoteRow
            label={charge.discount.coupon_code ? couponLabel(charge.discount.coupon_code) : t`Discount`}
          >
            −{money(charge.discount.amount_minor)}
          </QuoteRow>
        ) : null}
        {discounted && charge.quantity > 1 ? (
          <QuoteRow label={t`After the coupon`}>
            {times(charge.quantity, money(charge.unit_price_minor))}
          </QuoteRow>
        ) : null}
        {charge.credit_minor !== 0 ? (
          <QuoteRow label={charge.credit_minor < 0 ? t`Credit from earlier payments` : t`Adjustment`}>
            {charge.credit_minor < 0 ? '−' : ''}
            {money(Math.abs(charge.credit_minor))}
          </QuoteRow>
        ) : null}
        {charge.taxes.map((tax) => (
          <QuoteRow key={tax.name} label={taxLabel(tax.name, percent(tax.rate_bp), charge.lines_include_tax)}>
            {charge.lines_include_tax ? '' : '+'}
            {money(tax.amount)}
          </QuoteRow>
        ))}
        <QuoteRow label={t`Charged today`} strong>
          <span data-testid="charged-today">{money(charge.charged_today_minor)}</span>
        </QuoteRow>
      </Stack>
      {charge.next_charge ? (
        <Text size="sm" data-testid="next-charge">
          {nextChargeLine(money(charge.next_charge.amount_minor), formatDate(charge.next_charge.at))}
        </Text>
      ) : null}
    </Stack>
  );
}
