import { Stack, Text } from '@mantine/core';
import type { ChargeSummary } from '../../../../../shared/api/charges';
import { QuoteRow } from '../../../components/data/quote-row';
import { formatDate } from '../../../lib/format-date';
import { formatMoney } from '../../../lib/format-money';

const percent = (basisPoints: number) => `${basisPoints / 100}%`;
const times = (quantity: number, unit: string, money: string) =>
  quantity === 1 ? money : `${quantity} ${unit}s × ${money}`;

/** "₹799.20 charged today": the sentence a success panel leads with. */
export const chargedTodayText = (charge: Pick<ChargeSummary, 'charged_today_minor' | 'currency'>) =>
  `${formatMoney(charge.charged_today_minor, charge.currency)} charged today`;

/**
 * What a payment charged, line by line as its invoice has it: the list price (times the seats),
 * the coupon's discount, the price paid per seat after it, the tax (included or added), the total
 * charged today and the next charge. Every success panel shows its charge with this one list.
 */
export function ChargeLines({ charge, unit = 'seat' }: { charge: ChargeSummary; unit?: string }) {
  const money = (minor: number) => formatMoney(minor, charge.currency);
  const discounted = charge.discount !== null;
  return (
    <Stack gap={6}>
      <Stack component="dl" gap={6} m={0} data-testid="charge-lines">
        <QuoteRow label={charge.description}>
          {times(charge.quantity, unit, money(charge.list_price_minor))}
        </QuoteRow>
        {charge.discount ? (
          <QuoteRow
            label={charge.discount.coupon_code ? `Coupon ${charge.discount.coupon_code}` : 'Discount'}
          >
            −{money(charge.discount.amount_minor)}
          </QuoteRow>
        ) : null}
        {discounted && charge.quantity > 1 ? (
          <QuoteRow label="After the coupon">
            {times(charge.quantity, unit, money(charge.unit_price_minor))}
          </QuoteRow>
        ) : null}
        {charge.credit_minor !== 0 ? (
          <QuoteRow label={charge.credit_minor < 0 ? 'Credit from earlier payments' : 'Adjustment'}>
            {charge.credit_minor < 0 ? '−' : ''}
            {money(Math.abs(charge.credit_minor))}
          </QuoteRow>
        ) : null}
        {charge.taxes.map((tax) => (
          <QuoteRow
            key={tax.name}
            label={`${charge.lines_include_tax ? 'Including ' : ''}${tax.name} ${percent(tax.rate_bp)}`}
          >
            {charge.lines_include_tax ? '' : '+'}
            {money(tax.amount)}
          </QuoteRow>
        ))}
        <QuoteRow label="Charged today" strong>
          <span data-testid="charged-today">{money(charge.charged_today_minor)}</span>
        </QuoteRow>
      </Stack>
      {charge.next_charge ? (
        <Text size="sm" data-testid="next-charge">
          Next charge: {money(charge.next_charge.amount_minor)} on {formatDate(charge.next_charge.at)}.
        </Text>
      ) : null}
    </Stack>
  );
}
