import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Group,
  NumberInput,
  Radio,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import type { FormErrors } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import {
  type Coupon,
  createCouponRequestSchema,
  updateCouponRequestSchema,
} from '../../../../../shared/api/coupons';
import { local } from '../../../../../shared/dates';
import { changedFields } from '../../../components/forms/changed-fields';
import { DayInput } from '../../../components/forms/day-input';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { FormDialog } from '../../../components/forms/form-dialog';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { useDialogForm } from '../../../components/forms/use-dialog-form';
import { formErrors } from '../features/form-errors';
import { dayOf, endOfDayIso } from '../licenses/license-forms';
import {
  adminCouponMessages,
  type CreateCouponRequest,
  type UpdateCouponRequest,
  useCreateAdminCouponMutation,
  useUpdateAdminCouponMutation,
} from './admin-coupons-endpoints';
import { couponDiscount, durationText, minorDigits } from './coupon-format';

interface CouponValues {
  code: string;
  description: string;
  kind: 'percent' | 'amount';
  /** NumberInput gives '' while empty. */
  percent: number | string;
  /** In the currency's main unit (rupees), as typed. */
  amount: number | string;
  currency: string;
  duration: Coupon['duration'];
  /** `YYYY-MM-DD`, or '' for no expiry. */
  expires_on: string;
  /** '' for no limit. */
  limit: number | string;
}

const FIELDS = [
  'code',
  'kind',
  'percent',
  'amount',
  'currency',
  'duration',
  'expires_on',
  'limit',
  'description',
];

/** The server's field names as this form's. */
const FIELD_NAMES: Record<string, string> = {
  code: 'code',
  description: 'description',
  percent_off: 'percent',
  amount_off_minor: 'amount',
  currency: 'currency',
  duration: 'duration',
  expires_at: 'expires_on',
  max_redemptions: 'limit',
};

const valuesOf = (coupon: Coupon | null, currency: string): CouponValues => {
  const amountOff = coupon?.amount_off_minor ?? null;
  const inCurrency = coupon?.currency ?? currency;
  return {
    code: coupon?.code ?? '',
    description: coupon?.description ?? '',
    kind: amountOff !== null ? 'amount' : 'percent',
    percent: coupon?.percent_off ?? '',
    amount: amountOff !== null ? amountOff / 10 ** minorDigits(inCurrency) : '',
    currency: inCurrency,
    duration: coupon?.duration ?? 'once',
    expires_on: coupon?.expires_at ? dayOf(coupon.expires_at) : '',
    limit: coupon?.max_redemptions ?? '',
  };
};

const numberOrUndefined = (value: number | string) => (value === '' ? undefined : Number(value));

/** The create request the form stands for: a percentage, or an amount in minor units with its currency. */
export function toCreateRequest(values: CouponValues): CreateCouponRequest {
  const currency = values.currency.trim().toUpperCase();
  const amount = numberOrUndefined(values.amount);
  return {
    code: values.code.trim(),
    ...(values.description.trim() ? { description: values.description.trim() } : {}),
    ...(values.kind === 'percent'
      ? { percent_off: numberOrUndefined(values.percent) }
      : {
          amount_off_minor:
            amount === undefined ? undefined : Math.round(amount * 10 ** minorDigits(currency)),
          currency,
        }),
    duration: values.duration,
    ...(values.expires_on ? { expires_at: endOfDayIso(values.expires_on) } : {}),
    ...(values.limit === '' ? {} : { max_redemptions: Number(values.limit) }),
  };
}

/** What an edit may change: description, expiry and limit (none of them, or null to clear). */
function toUpdateRequest(values: CouponValues) {
  return {
    description: values.description.trim() || null,
    expires_at: values.expires_on ? endOfDayIso(values.expires_on) : null,
    max_redemptions: values.limit === '' ? null : Number(values.limit),
  };
}

const isFutureDay = (day: string) => local(day).isValid() && local(day).endOf('day').valueOf() > Date.now();

function validateFor(coupon: Coupon | null) {
  const editing = coupon !== null;
  // An expired coupon's other fields can still be changed: only a new expiry must be ahead.
  const savedDay = coupon?.expires_at ? dayOf(coupon.expires_at) : '';
  return (values: CouponValues): FormErrors => {
    const errors: FormErrors = editing
      ? formErrors(updateCouponRequestSchema.safeParse(toUpdateRequest(values)), FIELD_NAMES)
      : formErrors(createCouponRequestSchema.safeParse(toCreateRequest(values)), FIELD_NAMES);
    // Said plainly where the schema would only say "give one or the other".
    if (!editing && values.kind === 'percent' && values.percent === '')
      errors.percent = t`Enter the percentage off`;
    if (!editing && values.kind === 'amount' && values.amount === '') errors.amount = t`Enter the amount off`;
    if (values.expires_on && values.expires_on !== savedDay && !isFutureDay(values.expires_on))
      errors.expires_on = t`Choose today or a later day`;
    return errors;
  };
}

export interface CouponFormModalProps {
  /** `null` creates; a coupon edits its description, expiry and limit. */
  coupon: Coupon | null;
  opened: boolean;
  /** The currency an amount off is in unless changed: the portal's. */
  currency: string;
  onClose: () => void;
  onSaved: (coupon: Coupon) => void;
}

/** "New coupon" / "Edit coupon": checked with the shared request schemas; the server's refusals go to their fields. */
export function CouponFormModal({ coupon, opened, currency, onClose, onSaved }: CouponFormModalProps) {
  const { t } = useLingui();
  const [createCoupon] = useCreateAdminCouponMutation();
  const [updateCoupon] = useUpdateAdminCouponMutation();
  const editing = coupon !== null;
  const failedMessage = editing
    ? adminCouponMessages.updateCouponFailed
    : adminCouponMessages.createCouponFailed;
  const { form, restart, dialog } = useDialogForm<CouponValues>({
    initialValues: valuesOf(coupon, currency),
    validate: validateFor(coupon),
    fields: FIELDS,
    failedMessage,
    save: async (values) => {
      let saved: Coupon;
      try {
        saved = coupon
          ? await updateCoupon({
              id: coupon.id,
              changes: changedFields(
                toUpdateRequest(valuesOf(coupon, currency)),
                toUpdateRequest(values),
              ) as UpdateCouponRequest,
            }).unwrap()
          : await createCoupon(toCreateRequest(values)).unwrap();
      } catch (error) {
        // The server's word on a field goes under that field, as the form's own checks do.
        const { message, fieldErrors, code } = toSubmitFailure(error, failedMessage, FIELD_NAMES);
        if (code === 'coupon_code_taken') fieldErrors.code = message;
        if (/^expires_at\b/.test(message) && !fieldErrors.expires_on) fieldErrors.expires_on = message;
        if (Object.keys(fieldErrors).length > 0) {
          form.setErrors(fieldErrors);
          focusFirstError(fieldErrors, form.getInputNode, FIELDS);
        }
        throw error;
      }
      const code = saved.code;
      const discount = couponDiscount(saved);
      notifications.show({
        color: 'teal',
        title: coupon ? t`Coupon saved` : t`Coupon created`,
        message: coupon
          ? t`${code} was updated.`
          : t`Customers can now use ${code} on the Purchase page (${discount}).`,
      });
      onSaved(saved);
    },
  });

  // Fresh values each time the dialog opens; never while it is being filled in.
  useEffect(() => {
    if (opened) restart(valuesOf(coupon, currency));
  }, [opened, coupon, currency, restart]);

  const amount = form.values.kind === 'amount';
  const once = durationText('once');
  const forever = durationText('forever');
  const code = coupon?.code;
  const discount = coupon ? couponDiscount(coupon) : '';
  const duration = coupon ? durationText(coupon.duration).inText : '';
  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      holdWhileSubmitting
      title={coupon ? t`Edit coupon ${code}` : t`New coupon`}
      size="lg"
      intro={
        coupon ? (
          <Text size="sm" c="dimmed">
            <Trans>
              {discount} · {duration}. The code and the discount cannot change: archive this coupon and make
              another instead.
            </Trans>
          </Text>
        ) : undefined
      }
      {...dialog}
      failureTitle={coupon ? t`Could not save the coupon` : t`Could not create the coupon`}
      submitLabel={coupon ? t`Save changes` : t`Create coupon`}
      submitDisabled={coupon !== null && !form.isDirty()}
    >
      {coupon ? null : (
        <>
          <TextInput
            label={t`Code`}
            description={t`What customers type: letters, digits, - and _; read in any case.`}
            required
            maxLength={40}
            data-autofocus
            autoComplete="off"
            spellCheck={false}
            styles={{
              input: { fontFamily: 'var(--mantine-font-family-monospace)', textTransform: 'uppercase' },
            }}
            {...form.getInputProps('code')}
          />
          <Stack gap={6}>
            <Text size="md" fw={600} id="coupon-kind-label">
              <Trans>Discount</Trans>
            </Text>
            <SegmentedControl
              aria-labelledby="coupon-kind-label"
              data={[
                { value: 'percent', label: t`Percentage` },
                { value: 'amount', label: t`Fixed amount` },
              ]}
              {...form.getInputProps('kind')}
            />
          </Stack>
          {amount ? (
            <Group grow align="flex-start" wrap="wrap">
              <NumberInput
                size="md"
                label={t`Amount off`}
                description={t`In the currency’s main unit (₹100, not paise).`}
                required
                min={0}
                decimalScale={minorDigits(form.values.currency.trim().toUpperCase() || currency)}
                miw={180}
                {...form.getInputProps('amount')}
              />
              <TextInput
                label={t`Currency`}
                description={t`Three letters: plans in other currencies refuse it.`}
                required
                maxLength={3}
                miw={140}
                styles={{ input: { textTransform: 'uppercase' } }}
                {...form.getInputProps('currency')}
              />
            </Group>
          ) : (
            <NumberInput
              size="md"
              label={t`Percentage off`}
              description={t`A whole number; the discount is rounded down to the smallest coin.`}
              required
              min={1}
              max={100}
              allowDecimal={false}
              suffix="%"
              {...form.getInputProps('percent')}
            />
          )}
          <Radio.Group label={t`Applies to`} size="md" required {...form.getInputProps('duration')}>
            <Stack gap="xs" mt="xs">
              <Radio value="once" label={once.label} description={once.hint} />
              <Radio value="forever" label={forever.label} description={forever.hint} />
            </Stack>
          </Radio.Group>
        </>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <DayInput
          label={t`Expires`}
          description={t`Optional: last day it is accepted.`}
          clearable
          data-autofocus={coupon ? true : undefined}
          {...form.getInputProps('expires_on')}
          value={form.getValues().expires_on}
        />
        <NumberInput
          size="md"
          label={t`Redemption limit`}
          description={t`Optional: how many times in all.`}
          min={1}
          allowDecimal={false}
          {...form.getInputProps('limit')}
        />
      </SimpleGrid>
      <TextInput
        label={t`Description`}
        description={t`Optional; customers see it beside the price.`}
        maxLength={200}
        {...form.getInputProps('description')}
      />
    </FormDialog>
  );
}
