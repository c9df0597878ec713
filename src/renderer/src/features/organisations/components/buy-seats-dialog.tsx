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

/** The price of a new seat total: per seat, due now for the rest of the period, and each charge after. */
export function SeatQuoteSummary({ quote }: { quote: SeatQuote }) {
  const money = (minor: number) => formatMoney(minor, quote.currency);
  return (
    <Stack component="dl" gap={6} m={0} data-testid="seat-quote">
      <QuoteRow label="Seats">
        {quote.seats_from} → {quote.seats_to}
      </QuoteRow>
      <QuoteRow label="Price of a seat">{money(quote.per_seat_minor)} each period</QuoteRow>
      <QuoteRow
        label={quote.period_end ? `Due now, until ${formatDate(quote.period_end)}` : 'Due now'}
        strong
      >
        {money(quote.due_now_minor)}
      </QuoteRow>
      <QuoteRow label={`Next charge, for ${quote.seats_to} seats`}>{money(quote.next_charge_minor)}</QuoteRow>
    </Stack>
  );
}

type QuoteState =
  | { step: 'idle' }
  | { step: 'loading' }
  | { step: 'ready'; quote: SeatQuote }
  | { step: 'failed'; message: string };

/** The seat total typed, or why it cannot be bought (the shared rules, and "more than now"). */
function checkTotal(value: string | number, bought: number): { seats: number } | { problem: string } {
  if (value === '') return { problem: 'Enter a number of seats' };
  const parsed = seatChangeBodySchema.safeParse({ seats: Number(value) });
  if (!parsed.success) return { problem: parsed.error.issues[0]?.message ?? 'Enter a number of seats' };
  if (parsed.data.seats <= bought) return { problem: `More than the ${bought} seats you have` };
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
  const bought = organisation.seats?.bought ?? 0;
  const [requestQuote] = useQuoteSeatsMutation();
  const [buySeats, { isLoading: buying }] = useBuySeatsMutation();
  const [total, setTotal] = useState<string | number>(bought + 1);
  const [quote, setQuote] = useState<QuoteState>({ step: 'idle' });
  const [problem, setProblem] = useState<string | null>(null);
  // Only the newest quote may fill the dialog: the total may change while one is on its way.
  const latest = useRef(0);
  const checked = checkTotal(total, bought);

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
      showToast({
        title: `${quote.quote.seats_to} seats`,
        message: charge
          ? `${chargedTodayText(charge)} for the rest of this period${next ? `; the next charge is ${formatMoney(next.amount_minor, charge.currency)} on ${formatDate(next.at)}` : ''}.`
          : `Nothing was due for the rest of this period; the next charge is ${formatMoney(quote.quote.next_charge_minor, quote.quote.currency)}.`,
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
      title={`Buy more seats for ${organisation.name}`}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void priceIt();
        }}
      >
        <Stack gap="md">
          {problem ? <FormAlert title="The seats were not bought">{problem}</FormAlert> : null}
          <Group align="flex-start" gap="sm" wrap="wrap">
            <NumberInput
              label="Seats in total"
              description={`You have ${bought} now.`}
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
              Show the price
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
                Choose the new total and see its price: the new seats are charged now for the rest of the
                current period, then every seat at each charge.
              </Text>
            ) : quote.step === 'loading' ? (
              <Stack gap={10} aria-busy="true" aria-label="Working out the price">
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
              Cancel
            </Button>
            <Button onClick={() => void confirm()} loading={buying} disabled={!ready}>
              {ready ? `Buy and pay ${formatMoney(ready.due_now_minor, ready.currency)}` : 'Buy seats'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
