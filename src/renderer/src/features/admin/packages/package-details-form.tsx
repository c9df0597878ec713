import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Button,
  Group,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import {
  BILLING_INTERVALS,
  type BillingInterval,
  createPlanRequestSchema,
  type CreatePlanRequest,
  MAX_FLOATING_BORROW_DAYS,
  MAX_FLOATING_LEASE_MINUTES,
  MAX_SEATS,
  MAX_DEACTIVATIONS_PER_30_DAYS,
  MAX_TRIAL_DAYS,
  MAX_UPDATE_MONTHS,
  type Plan,
  type UpdatePlanRequest,
} from '../../../../../shared/api/plans';
import { FINGERPRINT_COMPONENTS } from '../../../../../shared/fingerprint';
import { changedFields } from '../../../components/forms/changed-fields';
import { FormAlert } from '../../../components/forms/form-alert';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { useGetPaymentConfigQuery } from '../../payments';
import { planMessages } from '../../plans';
import { usePlans } from '../licenses/plan-options';
import { formErrors } from '../features/form-errors';
import { INTERVAL_LABELS, minorDigits, toMajor, toMinor } from './package-format';
import { PackagePricesEditor } from './package-prices-editor';

export interface PackageValues {
  name: string;
  code: string;
  description: string;
  /** In the currency's major unit (rupees, dollars), as typed. */
  price: number | string;
  currency: string;
  /** The package's prices in other currencies, in their major units, by currency; '' where it is not sold. */
  other_prices: Record<string, number | string>;
  billing_interval: BillingInterval;
  max_activations: number | string;
  /** Days of the free trial without a card; 0 offers none. */
  trial_days: number | string;
  /** Machines a license may deactivate in a rolling 30 days. */
  deactivations_per_30_days: number | string;
  /** Fingerprint components that must match for a machine to be known again. */
  fingerprint_threshold: number | string;
  sort_order: number | string;
  is_public: boolean;
  is_active: boolean;
  /** Months of updates of a perpetual package (or that an update renewal adds); empty for neither. */
  update_months: number | string;
  /** The perpetual package whose licenses' updates this one renews; '' when it renews none. */
  renews_updates_of: string;
  /** Floating seats (machines at once); empty for a node-locked package. */
  floating_seats: number | string;
  /** Minutes a floating seat stays held after its machine's last heartbeat. */
  floating_lease_minutes: number | string;
  /** The most days a floating seat may be borrowed for offline use (0: none). */
  floating_borrow_days: number | string;
}

const FIELDS = [
  'name',
  'code',
  'description',
  'price',
  'currency',
  'other_prices',
  'billing_interval',
  'max_activations',
  'trial_days',
  'deactivations_per_30_days',
  'fingerprint_threshold',
  'sort_order',
  'is_public',
  'is_active',
  'update_months',
  'renews_updates_of',
  'floating_seats',
  'floating_lease_minutes',
  'floating_borrow_days',
] as const;

export const DEFAULT_CURRENCY = 'INR';

/**
 * The currencies payments are taken in, plus a package's own when it is none of them (a package
 * priced before the payments' currencies changed), so the form shows the package as it is and says
 * why it cannot be bought. Until the payment settings are known, only the package's own.
 */
function currencyOptions(paymentCurrencies: readonly string[] | undefined, current: string) {
  const currencies = [...(paymentCurrencies ?? [])];
  if (current && !currencies.includes(current)) currencies.push(current);
  return currencies.map((value) => ({
    value,
    label: !paymentCurrencies || paymentCurrencies.includes(value) ? value : t`${value} (cannot be bought)`,
  }));
}

/** The form's other prices as the API takes them: the filled-in currencies but the package's own, in code order. */
function otherPricesOf(values: PackageValues, own: string): CreatePlanRequest['other_prices'] {
  return Object.entries(values.other_prices)
    .flatMap(([currency, price]) => {
      const major = numberOr(price);
      return currency === own || major === undefined
        ? []
        : [{ currency, price_minor: toMinor(major, currency) }];
    })
    .sort((a, b) => a.currency.localeCompare(b.currency));
}

const valuesOf = (plan: Plan | null): PackageValues => ({
  name: plan?.name ?? '',
  code: plan?.code ?? '',
  description: plan?.description ?? '',
  price: plan ? toMajor(plan.price_minor, plan.currency) : '',
  currency: plan?.currency ?? DEFAULT_CURRENCY,
  other_prices: Object.fromEntries(
    (plan?.prices.slice(1) ?? []).map((price) => [
      price.currency,
      toMajor(price.price_minor, price.currency),
    ]),
  ),
  billing_interval: plan?.billing_interval ?? 'month',
  max_activations: plan?.max_activations ?? 1,
  trial_days: plan?.trial_days ?? 0,
  deactivations_per_30_days: plan?.deactivations_per_30_days ?? 3,
  fingerprint_threshold: plan?.fingerprint_threshold ?? 3,
  sort_order: plan?.sort_order ?? 0,
  is_public: plan?.is_public ?? true,
  is_active: plan?.is_active ?? true,
  update_months: plan?.update_months ?? '',
  renews_updates_of: plan?.renews_updates_of ?? '',
  floating_seats: plan?.floating?.seats ?? '',
  floating_lease_minutes: plan?.floating?.lease_minutes ?? 15,
  floating_borrow_days: plan?.floating?.max_borrow_days ?? 7,
});

const numberOr = (value: number | string): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The request the form stands for (features aside: they have their own editor). */
export function toPackageRequest(values: PackageValues): CreatePlanRequest {
  const currency = values.currency.trim().toUpperCase();
  const price = numberOr(values.price);
  return {
    name: values.name.trim(),
    code: values.code.trim(),
    description: values.description.trim(),
    price_minor: price === undefined ? (undefined as unknown as number) : toMinor(price, currency),
    currency,
    // A free package is sold in no currency.
    other_prices: values.billing_interval === 'free' ? [] : otherPricesOf(values, currency),
    billing_interval: values.billing_interval,
    max_activations: numberOr(values.max_activations) as number,
    trial_days: numberOr(values.trial_days) ?? 0,
    deactivations_per_30_days: numberOr(values.deactivations_per_30_days) as number,
    fingerprint_threshold: numberOr(values.fingerprint_threshold) as number,
    sort_order: numberOr(values.sort_order) ?? 0,
    is_public: values.is_public,
    is_active: values.is_active,
    update_months: numberOr(values.update_months) ?? null,
    renews_updates_of: values.renews_updates_of || null,
    floating:
      numberOr(values.floating_seats) === undefined
        ? null
        : {
            seats: numberOr(values.floating_seats) as number,
            lease_minutes: numberOr(values.floating_lease_minutes) as number,
            max_borrow_days: numberOr(values.floating_borrow_days) as number,
          },
  };
}

/** The shared create schema gives the rules; an empty number field gets words instead of "expected number". */
export function validatePackage(values: PackageValues): FormErrors {
  const errors = formErrors(createPlanRequestSchema.safeParse(toPackageRequest(values)), {
    price_minor: 'price',
    'floating.seats': 'floating_seats',
    'floating.lease_minutes': 'floating_lease_minutes',
    'floating.max_borrow_days': 'floating_borrow_days',
  });
  if (numberOr(values.price) === undefined) errors.price = t`Enter a price (0 for a free package)`;
  for (const [currency, price] of Object.entries(values.other_prices))
    if (price === 0) errors[`other_prices.${currency}`] = t`Enter a price above 0, or leave it empty`;
  if (numberOr(values.max_activations) === undefined)
    errors.max_activations = t`Enter how many machines at once`;
  if (numberOr(values.deactivations_per_30_days) === undefined)
    errors.deactivations_per_30_days = t`Enter how many machines a license may free in 30 days (0 for none)`;
  if (numberOr(values.fingerprint_threshold) === undefined)
    errors.fingerprint_threshold = t`Enter how many fingerprint components must match`;
  return errors;
}

/** Only the fields that changed, so an edit never rewrites what another administrator changed meanwhile. */
function changesOf(plan: Plan, request: CreatePlanRequest): UpdatePlanRequest {
  const before = toPackageRequest(valuesOf(plan));
  const changes: UpdatePlanRequest = changedFields(before, request);
  // The floating terms are one object: sent when any of its fields changed.
  if (JSON.stringify(before.floating) === JSON.stringify(request.floating)) delete changes.floating;
  // The other prices are one list, replaced as a whole: sent when any of them changed.
  if (JSON.stringify(before.other_prices) === JSON.stringify(request.other_prices))
    delete changes.other_prices;
  // The server checks price and interval together: send both when either changes.
  if ('price_minor' in changes || 'billing_interval' in changes) {
    changes.price_minor = request.price_minor;
    changes.billing_interval = request.billing_interval;
  }
  return changes;
}

export interface PackageDetailsFormProps {
  /** `null` creates a package. */
  plan: Plan | null;
  submitLabel: string;
  /** Rejects with the API's error; the form shows it (on the field it names, else above). */
  onSubmit: (body: CreatePlanRequest | UpdatePlanRequest) => Promise<void>;
  onCancel?: () => void;
}

/**
 * The choices of "Renews updates of": no package, or a perpetual one (months of updates, renewing
 * none itself) other than this one and not archived; the package's own choice stays listed
 * whatever it has become, so the form shows it as it is.
 */
export function renewalOptions(plans: readonly Plan[], plan: Plan | null) {
  const perpetual = plans.filter(
    (candidate) =>
      candidate.id !== plan?.id &&
      candidate.update_months !== null &&
      candidate.renews_updates_of === null &&
      candidate.archived_at === null,
  );
  const current = plan?.renews_updates_of;
  const options = perpetual.map((candidate) => ({
    value: candidate.id,
    label: candidate.name,
  }));
  if (current && !options.some((option) => option.value === current))
    options.push({ value: current, label: plans.find((item) => item.id === current)?.name ?? current });
  return [{ value: '', label: t`None: not an update renewal` }, ...options];
}

/** Name, code, price, billing, machines and visibility of a package, checked with the shared request schema. */
export function PackageDetailsForm({ plan, submitLabel, onSubmit, onCancel }: PackageDetailsFormProps) {
  const { t, i18n } = useLingui();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<PackageValues>({
    initialValues: valuesOf(plan),
    validate: validatePackage,
    validateInputOnBlur: true,
  });
  const paymentConfig = useGetPaymentConfigQuery().data;
  const paymentCurrency = paymentConfig?.currency;
  const paymentCurrencies = paymentConfig?.currencies;
  // Every package, to offer the perpetual ones an update renewal may extend.
  const allPlans = usePlans().plans;
  const renewal = form.values.renews_updates_of !== '';

  // A new package starts in the currency payments are taken in, once that is known.
  useEffect(() => {
    if (!plan && paymentCurrency && !form.isDirty('currency'))
      form.setFieldValue('currency', paymentCurrency);
  }, [plan, paymentCurrency]);

  // A saved package comes back as a new object: its values become the form's clean state.
  useEffect(() => {
    const values = valuesOf(plan);
    form.setValues(values);
    form.resetDirty(values);
    form.clearErrors();
  }, [plan]);

  const submit = form.onSubmit(
    async (values) => {
      setFailure(null);
      const request = toPackageRequest(values);
      try {
        await onSubmit(plan ? changesOf(plan, request) : request);
      } catch (error) {
        const { message, fieldErrors, code } = toSubmitFailure(
          error,
          planMessages.savePlanFailed,
          { price_minor: 'price' },
          FIELDS,
        );
        if (code === 'plan_code_taken') fieldErrors.code = message;
        setFailure(message);
        form.setErrors(fieldErrors);
        focusFirstError(fieldErrors, form.getInputNode, FIELDS);
      }
    },
    (errors) => focusFirstError(errors, form.getInputNode, FIELDS),
  );

  const currency = form.values.currency.trim().toUpperCase();
  const digits = /^[A-Z]{3}$/.test(currency) ? minorDigits(currency) : 2;
  const free = form.values.billing_interval === 'free';
  const takenIn = (paymentCurrencies ?? []).join(', ');
  const components = FINGERPRINT_COMPONENTS.length;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {failure ? (
          <FormAlert title={plan ? t`Could not save the package` : t`Could not create the package`}>
            {failure}
          </FormAlert>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label={t`Name`}
            description={t`What customers see on the purchase page.`}
            required
            maxLength={100}
            data-autofocus
            {...form.getInputProps('name')}
          />
          <TextInput
            label={t`Code`}
            description={t`Lower-case letters, digits, - and _; used in links and reports.`}
            required
            maxLength={40}
            autoComplete="off"
            spellCheck={false}
            {...form.getInputProps('code')}
          />
        </SimpleGrid>
        <Textarea
          size="md"
          label={t`Description`}
          description={t`Shown with the package on the purchase page.`}
          rows={3}
          maxLength={1000}
          {...form.getInputProps('description')}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <NativeSelect
            label={t`Billing`}
            description={t`How often it is charged.`}
            size="md"
            data={BILLING_INTERVALS.map((interval) => ({
              value: interval,
              label: i18n._(INTERVAL_LABELS[interval]),
            }))}
            {...form.getInputProps('billing_interval')}
            onChange={(event) => {
              const interval = event.currentTarget.value as BillingInterval;
              form.setFieldValue('billing_interval', interval);
              if (interval === 'free') form.setFieldValue('price', 0);
            }}
          />
          <NumberInput
            label={t`Price`}
            description={
              free
                ? t`Free packages cost 0.`
                : currency
                  ? t`In ${currency}, per billing period.`
                  : t`In the currency, per billing period.`
            }
            size="md"
            min={0}
            decimalScale={digits}
            allowNegative={false}
            thousandSeparator=","
            disabled={free}
            required
            {...form.getInputProps('price')}
          />
          <NativeSelect
            label={t`Currency`}
            description={
              paymentCurrencies && !paymentCurrencies.includes(currency)
                ? t`Payments are taken in ${takenIn}: this package cannot be bought in ${currency}.`
                : t`The currency of this price.`
            }
            size="md"
            required
            data={currencyOptions(paymentCurrencies, plan?.currency ?? form.values.currency)}
            {...form.getInputProps('currency')}
          />
        </SimpleGrid>
        {free ? null : (
          <PackagePricesEditor
            inputProps={form.getInputProps}
            currencies={(paymentCurrencies ?? []).filter((other) => other !== currency)}
            own={currency}
          />
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <NumberInput
            label={t`Machines per license`}
            description={t`How many machines one license may be active on at once (1–${MAX_SEATS}).`}
            size="md"
            min={1}
            max={MAX_SEATS}
            allowDecimal={false}
            allowNegative={false}
            required
            {...form.getInputProps('max_activations')}
          />
          <NumberInput
            label={t`Display order`}
            description={t`Lower numbers are listed first on the purchase page.`}
            size="md"
            min={0}
            max={1_000_000}
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps('sort_order')}
          />
          <NumberInput
            label={t`Free trial (days)`}
            description={t`Days a customer may try it free, without a card or with one charged at the end; 0 offers no trial (up to ${MAX_TRIAL_DAYS}).`}
            size="md"
            min={0}
            max={MAX_TRIAL_DAYS}
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps('trial_days')}
          />
        </SimpleGrid>
        {/* Fair use of a license's machines: bottom-aligned, as the update fields below. */}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" style={{ alignItems: 'end' }}>
          <NumberInput
            label={t`Deactivations per 30 days`}
            description={t`How many machines a license may free in a rolling 30 days; the next is refused until one leaves the window. Administrators can reset the count.`}
            size="md"
            min={0}
            max={MAX_DEACTIVATIONS_PER_30_DAYS}
            allowDecimal={false}
            allowNegative={false}
            required
            {...form.getInputProps('deactivations_per_30_days')}
          />
          <NumberInput
            label={t`Fingerprint components to match`}
            description={t`How many of a machine's ${components} hashed components (machine id, CPU, disk, board, OS install) must match for it to keep its seat after a change.`}
            size="md"
            min={1}
            max={FINGERPRINT_COMPONENTS.length}
            allowDecimal={false}
            allowNegative={false}
            required
            {...form.getInputProps('fingerprint_threshold')}
          />
        </SimpleGrid>
        {/* Bottom-aligned: the two fields' descriptions differ in length, their inputs line up. */}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" style={{ alignItems: 'end' }}>
          <NumberInput
            label={renewal ? t`Months of updates added` : t`Months of updates (perpetual)`}
            description={
              renewal
                ? t`What each purchase adds to the license’s update window.`
                : t`Set it to sell a perpetual license (billing: lifetime) that never expires and gets updates for this many months. Leave it empty otherwise.`
            }
            size="md"
            min={1}
            max={MAX_UPDATE_MONTHS}
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps('update_months')}
          />
          <NativeSelect
            label={t`Renews updates of`}
            description={t`Makes it an update renewal of that perpetual package.`}
            size="md"
            data={renewalOptions(allPlans ?? [], plan)}
            {...form.getInputProps('renews_updates_of')}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" style={{ alignItems: 'end' }}>
          {plan?.seat_based ? (
            // A per-seat package's pool is what each organization buys: floating or not is the choice.
            <Switch
              label={t`Floating seats`}
              description={t`Members need no seat of their own: any of their machines run while fewer than the seats their organization bought are in use.`}
              checked={numberOr(form.values.floating_seats) !== undefined}
              onChange={(event) =>
                form.setFieldValue(
                  'floating_seats',
                  event.currentTarget.checked ? (plan.floating?.seats ?? 1) : '',
                )
              }
            />
          ) : (
            <NumberInput
              label={t`Floating seats`}
              description={t`Machines that may run at once, any of the license's machines. Leave empty for node-locked licenses.`}
              size="md"
              min={1}
              max={MAX_SEATS}
              allowDecimal={false}
              allowNegative={false}
              {...form.getInputProps('floating_seats')}
            />
          )}
          <NumberInput
            label={t`Floating lease (minutes)`}
            description={t`A seat comes back this long after its machine stops checking in.`}
            size="md"
            min={1}
            max={MAX_FLOATING_LEASE_MINUTES}
            allowDecimal={false}
            allowNegative={false}
            disabled={numberOr(form.values.floating_seats) === undefined}
            {...form.getInputProps('floating_lease_minutes')}
          />
          <NumberInput
            label={t`Borrow for offline use (days)`}
            description={t`The most days a machine may keep a seat offline; 0 allows no borrowing.`}
            size="md"
            min={0}
            max={MAX_FLOATING_BORROW_DAYS}
            allowDecimal={false}
            allowNegative={false}
            disabled={numberOr(form.values.floating_seats) === undefined}
            {...form.getInputProps('floating_borrow_days')}
          />
        </SimpleGrid>
        <Stack gap="sm">
          <Switch
            label={t`On sale`}
            description={t`Inactive packages cannot be bought; their licenses keep working.`}
            {...form.getInputProps('is_active', { type: 'checkbox' })}
          />
          <Switch
            label={t`Shown on the purchase page`}
            description={t`Hidden packages can still be granted by an administrator.`}
            {...form.getInputProps('is_public', { type: 'checkbox' })}
          />
        </Stack>
        <Group justify="flex-end" gap="sm">
          {onCancel ? (
            <Button variant="default" onClick={onCancel} disabled={form.submitting}>
              <Trans>Cancel</Trans>
            </Button>
          ) : form.isDirty() ? (
            <Button variant="default" onClick={() => form.reset()} disabled={form.submitting}>
              <Trans>Discard changes</Trans>
            </Button>
          ) : null}
          <Button type="submit" loading={form.submitting} disabled={plan !== null && !form.isDirty()}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
