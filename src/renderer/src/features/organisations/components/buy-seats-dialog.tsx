import { Trans, useLingui } from '@lingui/react/macro';
import type { I18n } from '@lingui/core';
import { msg, ph } from '@lingui/core/macro';
import { Box, Button, Group, Modal, NumberInput, Skeleton, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import {
  MAX_SEATS,
  type Organisation,
  type SeatQuote,
  seatChangeBodySchema,
} from '../../../../../shared/api/organisations';
import { QuoteRow } from '../../../components/data/quote-row';
import { showToast } from '../../../components/data/toast';
import { FormAlert } from '../../../components/forms/form-alert';
import { failureMessage } from '../../../lib/api-errors';
import { formatMoney } from '../../../lib/format-money';
import { chargedTodayText } from '../../subscriptions';
import { formatDate } from '../organisation-format';
import { organisationMessages, useBuySeatsMutation, useQuoteSeatsMutation } from '../organisations-endpoints';
import { knownText } from '../../../lib/i18n/portal-i18n';

/** The price of a new seat total: per seat, due now for the rest of the period, and each charge after. */
export function SeatQuoteSummary({ quote }: { quote: SeatQuote }) {
  const { t } = useLingui();
  const money = (minor: number) => formatMoney(minor, quote.currency);
  const seatsTo = quote.seats_to;
  return (
    <Stack component="dl" gap={6} m={0} data-testid="seat-quote">
      <QuoteRow label={t`Seats`}>
        {quote.seats_from} → {quote.seats_to}
      </QuoteRow>
      <QuoteRow
        label={t`Price of a seat`}
      >{t`${ph({ price: money(quote.per_seat_minor) })} each period`}</QuoteRow>
      <QuoteRow
        label={
          quote.period_end ? t`Due now, until ${ph({ until: formatDate(quote.period_end) })}` : t`Due now`
        }
        strong
      >
        {money(quote.due_now_minor)}
      </QuoteRow>
      <QuoteRow label={t`Next charge, for ${seatsTo} seats`}>{money(quote.next_charge_minor)}</QuoteRow>
    </Stack>
  );
}

type QuoteState =
  | { step: 'idle' }
  | { step: 'loading' }
  | { step: 'ready'; quote: SeatQuote }
  | { step: 'failed'; message: string };

/** The seat total typed, or why it cannot be bought (the shared rules, and "more than now"). */
function checkTotal(
  value: string | number,
  bought: number,
  i18n: I18n,
): { seats: number } | { problem: string } {
  const enter = i18n._(msg`Enter a number of seats`);
  if (value === '') return { problem: enter };
  const parsed = seatChangeBodySchema.safeParse({ seats: Number(value) });
  if (!parsed.success) {
    const problem = parsed.error.issues[0]?.message;
    return { problem: problem ? knownText(problem) : enter };
  }
  if (parsed.data.seats <= bought) return { problem: i18n._(msg`More than the ${bought} seats you have`) };
  return { seats: parsed.data.seats };
}

/**
 * Buying more seats: the new total, its price (POST seats/quote: the prorated part due now and the
 * next charge), then the purchase with the same total.
 */
export function BuySeatsDialog({
  organisation,
  opened,
  onClose,
}: {
  organisation: Organisation;
  opened: boolean;
  onClose(): void;
}) {
  const { t, i18n } = useLingui();
  const bought = organisation.seats?.bought ?? 0;
  const organisationName = organisation.name;
  const [requestQuote] = useQuoteSeatsMutation();
  const [buySeats, { isLoading: buying }] = useBuySeatsMutation();
  const [total, setTotal] = useState<string | number>(bought + 1);
  const [quote, setQuote] = useState<QuoteState>({ step: 'idle' });
  const [problem, setProblem] = useState<string | null>(null);
  // Only the newest quote may fill the dialog: the total may change while one is on its way.
  const latest = useRef(0);
  const checked = checkTotal(total, bought, i18n);

  useEffect(() => {
    if (!opened) return;
    setTotal(bought + 1);
    setQuote({ step: 'idle' });
    setProblem(null);
  }, [opened, bought]);

  const priceIt = async () => {
    if (!('seats' in checked)) return;
    const request = ++latest.current;
    setProblem(null);
    setQuote({ step: 'loading' });
    try {
      const answer = await requestQuote({ organisationId: organisation.id, seats: checked.seats }).unwrap();
      if (request === latest.current) setQuote({ step: 'ready', quote: answer });
    } catch (error) {
      if (request === latest.current)
        setQuote({ step: 'failed', message: failureMessage(error, organisationMessages.quoteFailed) });
    }
  };

  const change = (value: string | number) => {
    ++latest.current;
    setTotal(value);
    setQuote({ step: 'idle' });
  };

  const confirm = async () => {
    if (quote.step !== 'ready') return;
    setProblem(null);
    try {
      const { charge } = await buySeats({
        organisationId: organisation.id,
        seats: quote.quote.seats_to,
      }).unwrap();
      // What the payment actually took, as its invoice says; the quote only when nothing was charged.
      const next = charge?.next_charge;
      const seats = quote.quote.seats_to;
      const nextCharge = formatMoney(quote.quote.next_charge_minor, quote.quote.currency);
      showToast({
        title: t`${seats} seats`,
        message: charge
          ? next
            ? t`${ph({ charged: chargedTodayText(charge) })} for the rest of this period; the next charge is ${ph({ amount: formatMoney(next.amount_minor, charge.currency) })} on ${ph({ day: formatDate(next.at) })}.`
            : t`${ph({ charged: chargedTodayText(charge) })} for the rest of this period.`
          : t`Nothing was due for the rest of this period; the next charge is ${nextCharge}.`,
      });
      onClose();
    } catch (error) {
      setProblem(failureMessage(error, organisationMessages.buySeatsFailed));
    }
  };

  const ready = quote.step === 'ready' ? quote.quote : null;
  return (
    <Modal
      opened={opened}
      onClose={() => !buying && onClose()}
      title={t`Buy more seats for ${organisationName}`}
      centered
      closeButtonProps={{ 'aria-label': t`Close` }}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void priceIt();
        }}
      >
        <Stack gap="md">
          {problem ? <FormAlert title={t`The seats were not bought`}>{problem}</FormAlert> : null}
          <Group align="flex-start" gap="sm" wrap="wrap">
            <NumberInput
              label={t`Seats in total`}
              description={t`You have ${bought} now.`}
              min={bought + 1}
              max={MAX_SEATS}
              allowDecimal={false}
              allowNegative={false}
              value={total}
              onChange={change}
              error={total !== '' && 'problem' in checked ? checked.problem : undefined}
              data-autofocus
              style={{ flex: '1 1 10rem' }}
            />
            <Button
              type="submit"
              variant="light"
              mt={{ base: 0, xs: 47 }}
              disabled={!('seats' in checked)}
              loading={quote.step === 'loading'}
            >
              <Trans>Show the price</Trans>
            </Button>
          </Group>
          <Box
            aria-live="polite"
            p="md"
            style={{
              border: '1px solid var(--mantine-color-default-border)',
              borderRadius: 'var(--mantine-radius-md)',
              minHeight: 120,
            }}
          >
            {quote.step === 'idle' ? (
              <Text size="sm" c="dimmed">
                <Trans>
                  Choose the new total and see its price: the new seats are charged now for the rest of the
                  current period, then every seat at each charge.
                </Trans>
              </Text>
            ) : quote.step === 'loading' ? (
              <Stack gap={10} aria-busy="true" aria-label={t`Working out the price`}>
                {[0, 1, 2, 3].map((index) => (
                  <Skeleton key={index} height={16} />
                ))}
              </Stack>
            ) : quote.step === 'failed' ? (
              <Text size="sm" c="var(--mantine-color-error)" role="alert">
                {quote.message}
              </Text>
            ) : (
              <SeatQuoteSummary quote={quote.quote} />
            )}
          </Box>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={buying}>
              <Trans>Cancel</Trans>
            </Button>
            <Button onClick={() => void confirm()} loading={buying} disabled={!ready}>
              {ready
                ? t`Buy and pay ${ph({ amount: formatMoney(ready.due_now_minor, ready.currency) })}`
                : t`Buy seats`}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
