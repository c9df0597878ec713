import { useCallback, useState } from 'react';
import type { Payment, PaymentStatus } from '../../../../shared/api/payments';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/constants';
import { fetchPaymentHistory, fetchPaymentStatus, paymentMessages } from './payments-api';
import { useLoaded } from './use-loaded';

/** The user's payments (GET /payments/history), a page at a time, filtered by status. */
export function usePaymentHistory(perPage = DEFAULT_PAGE_SIZE) {
  const [page, setPage] = useState(1);
  const [status, setStatusFilter] = useState<PaymentStatus | null>(null);
  // Rows re-read one by one (GET /payments/status/{id}) replace the listed ones until the next load.
  const [updated, setUpdated] = useState<Record<string, Payment>>({});

  const load = useCallback(async () => {
    const answer = await fetchPaymentHistory({ page, perPage, ...(status ? { status } : {}) });
    setUpdated({});
    return answer;
  }, [page, perPage, status]);
  const { result, reload } = useLoaded(load, paymentMessages.fetchHistoryFailed);

  const data =
    result.state === 'loaded'
      ? { ...result.value, data: result.value.data.map((payment) => updated[payment.id] ?? payment) }
      : null;

  /** Asks the server for one payment's current status (a checkout left unfinished, a webhook since). */
  const refreshPayment = useCallback(async (id: string) => {
    const payment = await fetchPaymentStatus(id);
    setUpdated((previous) => ({ ...previous, [payment.id]: payment }));
    return payment;
  }, []);

  return {
    result,
    data,
    page,
    perPage,
    status,
    setPage,
    setStatus(next: PaymentStatus | null) {
      setStatusFilter(next);
      setPage(1);
    },
    reload,
    refreshPayment,
  };
}
