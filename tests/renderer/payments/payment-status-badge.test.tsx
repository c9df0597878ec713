import { I18nProvider } from '@lingui/react';
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  type PaymentBadgeFacts,
  PaymentStatusBadge,
  paymentStatusText,
} from '../../../src/renderer/src/components/data/payment-status-badge';
import { portalI18n } from '../../../src/renderer/src/lib/i18n/portal-i18n';

const paid = (facts: Partial<PaymentBadgeFacts> = {}): PaymentBadgeFacts => ({
  status: 'paid',
  sandbox: false,
  amount: 1_499_900,
  refunded: 0,
  currency: 'INR',
  ...facts,
});

const badge = (payment: PaymentBadgeFacts) =>
  render(
    <I18nProvider i18n={portalI18n}>
      <MantineProvider>
        <PaymentStatusBadge payment={payment} />
      </MantineProvider>
    </I18nProvider>,
  );

describe('PaymentStatusBadge', () => {
  it('reads "Partially refunded ₹5,000 of ₹14,999" while part of a payment is refunded', () => {
    badge(paid({ refunded: 500_000 }));
    expect(screen.getByText('Partially refunded ₹5,000 of ₹14,999')).toBeTruthy();
    expect(screen.queryByText('Paid')).toBeNull();
  });

  it('reads "Refunded" once all of it is, and paise are written when there are some', () => {
    badge(paid({ refunded: 1_499_900 }));
    expect(screen.getByText('Refunded')).toBeTruthy();
    expect(paymentStatusText(paid({ amount: 99_950, refunded: 10_025 })).label).toBe(
      'Partially refunded ₹100.25 of ₹999.50',
    );
  });

  it('a paid payment of nothing is "No charge", not "Paid"; other statuses keep their words', () => {
    badge(paid({ amount: 0 }));
    expect(screen.getByText('No charge')).toBeTruthy();
    expect(paymentStatusText(paid()).label).toBe('Paid');
    expect(paymentStatusText(paid({ status: 'failed', refunded: 0 })).label).toBe('Failed');
    expect(paymentStatusText(paid({ status: 'created' })).label).toBe('Not completed');
  });

  it('marks a sandbox payment beside its status', () => {
    badge(paid({ sandbox: true, refunded: 500_000 }));
    expect(screen.getByText('Sandbox')).toBeTruthy();
    expect(screen.getByText('Partially refunded ₹5,000 of ₹14,999')).toBeTruthy();
  });
});
