import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { NumberInput, Radio, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { z } from 'zod';
import type { PaymentRefunds, RefundLicenseAction } from '../../../../../shared/api/invoices';
import { FormDialog } from '../../../components/forms/form-dialog';
import { useDialogForm } from '../../../components/forms/use-dialog-form';
import { formatMinorAmount } from '../../invoices';
import { adminBillingMessages, useRefundPaymentMutation } from './admin-invoices-endpoints';

interface RefundValues {
  /** In major units as typed (999.00); sent in minor units. */
  amount: number | string;
  license_action: RefundLicenseAction;
  reason: string;
}

const FIELDS = ['amount', 'license_action', 'reason'] as const;

const LICENSE_CHOICES: {
  value: RefundLicenseAction;
  label: MessageDescriptor;
  description: MessageDescriptor;
}[] = [
  { value: 'keep', label: msg`Keep the license`, description: msg`The customer keeps what they have.` },
  {
    value: 'shorten',
    label: msg`End the license now`,
    description: msg`It expires at once; its machines are told at their next check.`,
  },
  {
    value: 'revoke',
    label: msg`Revoke the license`,
    description: msg`Revoked for good; the customer sees your reason.`,
  },
];

/** The currency's decimals (2 for INR), to turn a typed amount into minor units exactly. */
const decimalsOf = (currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;

/** "12.34" → 1234 without floating error; undefined when it is not an amount in this currency. */
export function toMinorUnits(value: number | string, currency: string): number | undefined {
  const decimals = decimalsOf(currency);
  const text = typeof value === 'number' ? value.toFixed(decimals) : value.trim();
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  if (fraction.length > decimals && /[^0]/.test(fraction.slice(decimals))) return undefined;
  return Number(match[1]) * 10 ** decimals + Number(fraction.slice(0, decimals).padEnd(decimals, '0') || 0);
}

export interface RefundDialogProps {
  opened: boolean;
  onClose: () => void;
  refunds: PaymentRefunds;
  /** What the dialog refunds, shown at its top. */
  intro: string;
}

/** Refund all or part of a paid payment, choosing what becomes of its license. */
export function RefundDialog({ opened, onClose, refunds, intro }: RefundDialogProps) {
  const { t, i18n } = useLingui();
  const [refundPayment] = useRefundPaymentMutation();
  const { currency, refundable } = refunds;
  const decimals = decimalsOf(currency);
  const lowest = formatMinorAmount(1, currency);
  const highest = formatMinorAmount(refundable, currency);
  const rules = z
    .object({
      amount: z.union([z.number(), z.string()]).refine(
        (value) => {
          const minor = toMinorUnits(value, currency);
          return minor !== undefined && minor >= 1 && minor <= refundable;
        },
        t`Enter an amount from ${lowest} to ${highest}`,
      ),
      license_action: z.enum(['keep', 'shorten', 'revoke']),
      reason: z
        .string()
        .trim()
        .max(500, t`At most 500 characters`),
    })
    .refine((values) => values.license_action !== 'revoke' || values.reason.trim().length > 0, {
      path: ['reason'],
      message: t`Give a reason to revoke the license: the customer sees it`,
    });
  const { form, dialog } = useDialogForm<RefundValues>({
    initialValues: { amount: refundable / 10 ** decimals, license_action: 'keep', reason: '' },
    validate: (values) => {
      const parsed = rules.safeParse(values);
      if (parsed.success) return {};
      return Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
    },
    fields: FIELDS,
    failedMessage: adminBillingMessages.refundFailed,
    save: async (values) => {
      const amount = toMinorUnits(values.amount, currency) ?? 0;
      const answer = await refundPayment({
        id: refunds.payment_id,
        body: {
          amount,
          license_action: values.license_action,
          ...(values.reason.trim() ? { reason: values.reason.trim() } : {}),
        },
      }).unwrap();
      const note = answer.refunds.at(-1)?.credit_note?.number;
      const refunded = formatMinorAmount(amount, currency);
      notifications.show({
        color: 'teal',
        title: t`Payment refunded`,
        message: note ? t`${refunded} refunded; credit note ${note} issued.` : t`${refunded} refunded.`,
      });
      onClose();
    },
  });

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={t`Refund payment`}
      intro={
        <Text size="sm" c="dimmed">
          <Trans>
            {intro}. Up to {highest} can be refunded.
          </Trans>
        </Text>
      }
      failureTitle={t`Could not refund`}
      submitLabel={t`Refund`}
      submitColor="red.9"
      holdWhileSubmitting
      {...dialog}
    >
      <NumberInput
        label={t`Amount (${currency})`}
        description={t`Leave the whole amount to refund everything that is left.`}
        min={0}
        decimalScale={decimals}
        fixedDecimalScale
        thousandSeparator=","
        required
        data-autofocus
        {...form.getInputProps('amount')}
      />
      <Radio.Group label={t`The license`} required {...form.getInputProps('license_action')}>
        <Stack gap="xs" mt={6}>
          {LICENSE_CHOICES.map((choice) => (
            <Radio
              key={choice.value}
              value={choice.value}
              label={i18n._(choice.label)}
              description={i18n._(choice.description)}
            />
          ))}
        </Stack>
      </Radio.Group>
      <Textarea
        label={t`Reason`}
        description={
          form.values.license_action === 'revoke'
            ? t`Required: the customer sees it on the license.`
            : t`Optional.`
        }
        required={form.values.license_action === 'revoke'}
        autosize
        minRows={2}
        {...form.getInputProps('reason')}
      />
    </FormDialog>
  );
}
