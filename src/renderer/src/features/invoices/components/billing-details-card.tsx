import type { MessageDescriptor } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, NativeSelect, SimpleGrid, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useMemo, useState } from 'react';
import { schemaResolver } from '../../../components/forms/schema-resolver';
import {
  type BillingDetails,
  type BillingDetailsRequest,
  billingDetailsRequestSchema,
  INDIAN_PIN,
  INDIAN_PIN_PROBLEM,
  INDIAN_STATE_PROBLEM,
} from '../../../../../shared/api/invoices';
import { COUNTRIES, currentCountryCode } from '../../../../../shared/countries';
import { isEuCountry, normalizeVatNumber, vatNumberProblem } from '../../../../../shared/eu-vat';
import { findGstState, GST_STATES } from '../../../../../shared/gst-states';
import { gstinProblem, normalizeGstin } from '../../../../../shared/gstin';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { FormAlert } from '../../../components/forms/form-alert';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { SectionCard } from '../../../components/layout/section-card';
import { countryNameIn } from '../../../lib/country-names';
import { formattingLocale, knownText } from '../../../lib/i18n/portal-i18n';
import { GST_STATE_NAMES } from '../gst-state-names';
import { billingMessages, useSaveBillingDetailsMutation } from '../invoices-endpoints';

interface BillingValues {
  name: string;
  address_line1: string;
  address_line2: string;
  city: string;
  postal_code: string;
  region: string;
  country: string;
  tax_id: string;
}

/** In the order they are shown (the first with an error takes the focus). */
const FIELDS = [
  'name',
  'country',
  'address_line1',
  'address_line2',
  'city',
  'postal_code',
  'region',
  'tax_id',
] as const;

/**
 * The maintained ISO 3166-1 list the server checks against (shared/countries.ts), each country
 * named and sorted in the language shown (`locale`; undefined: English).
 */
function countryOptions(locale: string | undefined) {
  return COUNTRIES.map(({ code }) => ({ value: code, label: countryNameIn(code, locale) })).sort((a, b) =>
    a.label.localeCompare(b.label, locale ?? 'en'),
  );
}

/**
 * India's states and union territories, each with its GST code, named and sorted in the language
 * shown (`nameOf`, `locale`; undefined: English); the value is the English name, which is saved.
 */
function stateOptions(nameOf: (name: MessageDescriptor) => string, locale: string | undefined) {
  return GST_STATES.map(({ code, name }) => {
    const shown = GST_STATE_NAMES[code];
    return { value: name, label: `${shown ? nameOf(shown) : name} (${code})` };
  }).sort((a, b) => a.label.localeCompare(b.label, locale ?? 'en'));
}

/**
 * The form's values from what was saved. A country saved under a withdrawn code reads as the
 * current one (an unknown one as none, so the form asks); an Indian state typed before the list
 * was offered is matched to it where it names one, else left for the customer to choose.
 */
const toValues = (details: BillingDetails | null): BillingValues => {
  const country = details ? (currentCountryCode(details.country) ?? '') : 'IN';
  const region = details?.region ?? '';
  return {
    name: details?.name ?? '',
    address_line1: details?.address_line1 ?? '',
    address_line2: details?.address_line2 ?? '',
    city: details?.city ?? '',
    postal_code: details?.postal_code ?? '',
    region: country === 'IN' ? (findGstState(region)?.name ?? '') : region,
    country,
    tax_id: details?.tax_id ?? '',
  };
};

/** The theme's size of a text input (theme.ts): the selects take it too, so every field is one size. */
const FIELD_SIZE = 'md';

/** A field's help under its input, so the inputs of one row line up whatever their help says. */
const BELOW: ('label' | 'input' | 'description' | 'error')[] = ['label', 'input', 'description', 'error'];

const schemaRules = schemaResolver(billingDetailsRequestSchema);

/**
 * The server's rules (the shared schema), plus India's and the EU's on their own: the schema makes
 * those only once every other field is valid, and a customer should see a mistyped GSTIN or VAT
 * number as soon as they leave the field. The form also asks for the state, which the API leaves optional.
 */
function validateBilling(values: BillingValues): Record<string, ReactNode> {
  const errors: Record<string, ReactNode> = { ...schemaRules(values) };
  if (!values.country) errors['country'] ??= t`Choose a country`;
  if (values.country === 'IN') {
    const gstin = normalizeGstin(values.tax_id);
    const problem = gstin ? gstinProblem(gstin) : undefined;
    if (problem) errors['tax_id'] ??= knownText(problem);
    if (values.postal_code.trim() && !INDIAN_PIN.test(values.postal_code.replace(/\s+/g, '')))
      errors['postal_code'] ??= knownText(INDIAN_PIN_PROBLEM);
    if (!findGstState(values.region)) errors['region'] ??= knownText(INDIAN_STATE_PROBLEM);
  }
  if (isEuCountry(values.country) && values.tax_id.trim()) {
    const problem = vatNumberProblem(values.country, normalizeVatNumber(values.country, values.tax_id));
    if (problem) errors['tax_id'] ??= knownText(problem);
  }
  return errors;
}

export interface BillingDetailsCardProps {
  details: BillingDetails | null;
  /**
   * Where the details are saved; the customer's own (PUT /billing/details) unless given (an
   * organisation's are saved on the organisation). Rejects with the endpoint's failure.
   */
  save?: (details: BillingDetailsRequest) => Promise<BillingDetails>;
  /** The line under the heading, when the details are not the customer's own. */
  description?: string;
  /** Whose details these are, for the card's heading id (one page may show two). */
  headingId?: string;
}

/** A billing name and address (the customer's own by default); India's tax id is a GSTIN, the EU's a VAT number. */
export function BillingDetailsCard({
  details,
  save,
  description,
  headingId = 'billing-details-title',
}: BillingDetailsCardProps) {
  const { t } = useLingui();
  // useLingui renders the card again when the language changes, and the names follow it.
  const locale = formattingLocale();
  const countries = useMemo(() => countryOptions(locale), [locale]);
  const [saveOwnDetails] = useSaveBillingDetailsMutation();
  // Shown only while the saved country is not on the list (a code nobody can choose any more).
  const noCountry = { value: '', label: t`Choose a country`, disabled: true };
  const states = [
    { value: '', label: t`Choose a state`, disabled: true },
    ...stateOptions((name) => t(name), locale),
  ];
  const saveBillingDetails = save ?? ((request: BillingDetailsRequest) => saveOwnDetails(request).unwrap());
  const [failure, setFailure] = useState<string>();
  const form = useForm<BillingValues>({
    initialValues: toValues(details),
    validate: validateBilling,
    // The tax id is checked as soon as it is left (a mistyped GSTIN shows at once); the other
    // fields on save, so tabbing through an empty form does not mark every field as wrong.
    validateInputOnBlur: ['tax_id'],
  });
  const india = form.values.country === 'IN';
  const eu = isEuCountry(form.values.country);

  const submit = form.onSubmit(
    async (values) => {
      setFailure(undefined);
      try {
        const saved = await saveBillingDetails({
          ...values,
          address_line2: values.address_line2 || null,
          region: values.region || null,
          tax_id: values.tax_id || null,
        });
        const next = toValues(saved);
        form.setValues(next);
        form.resetDirty(next);
        notifications.show({
          color: 'teal',
          title: t`Billing details saved`,
          message: t`Invoices issued from now on carry them.`,
        });
      } catch (error) {
        const { message, fieldErrors } = toSubmitFailure(
          error,
          billingMessages.saveDetailsFailed,
          {},
          FIELDS,
        );
        setFailure(message);
        form.setErrors(fieldErrors);
        focusFirstError(fieldErrors, form.getInputNode, FIELDS);
      }
    },
    (errors) => focusFirstError(errors, form.getInputNode, FIELDS),
  );

  return (
    <SectionCard
      headingId={headingId}
      title={t`Billing details`}
      description={
        description ??
        t`The name, address and tax id printed on your invoices. Invoices already issued keep the details they were issued with.`
      }
      onSubmit={submit}
    >
      {failure ? <FormAlert title={t`Could not save the billing details`}>{failure}</FormAlert> : null}
      {/* Every field the same width: two columns where the card is wide enough, one where it is not
          (a phone, the create-organisation dialog), each description under its field so the
          inputs of a row line up. */}
      <div style={{ containerType: 'inline-size' }}>
        <SimpleGrid type="container" cols={{ base: 1, '34rem': 2 }} spacing="md" verticalSpacing="md">
          <TextInput
            label={t`Billing name`}
            description={t`A person or a company`}
            inputWrapperOrder={BELOW}
            autoComplete="organization"
            required
            {...form.getInputProps('name')}
          />
          <NativeSelect
            size={FIELD_SIZE}
            label={t`Country`}
            autoComplete="country"
            required
            data={form.values.country ? countries : [noCountry, ...countries]}
            {...form.getInputProps('country')}
            onChange={(event) => {
              const country = event.currentTarget.value;
              // A state of one country means nothing in another: the region starts again.
              if ((country === 'IN') !== india) form.setFieldValue('region', '');
              form.setFieldValue('country', country);
            }}
          />
          <TextInput
            label={t`Address`}
            autoComplete="address-line1"
            required
            {...form.getInputProps('address_line1')}
          />
          <TextInput
            label={t`Address, second line`}
            autoComplete="address-line2"
            {...form.getInputProps('address_line2')}
          />
          <TextInput label={t`City`} autoComplete="address-level2" required {...form.getInputProps('city')} />
          <TextInput
            label={india ? t`PIN code` : t`Postal code`}
            description={india ? t`6 digits` : undefined}
            inputWrapperOrder={BELOW}
            autoComplete="postal-code"
            inputMode={india ? 'numeric' : 'text'}
            maxLength={india ? 7 : 20}
            required
            {...form.getInputProps('postal_code')}
          />
          {india ? (
            <NativeSelect
              size={FIELD_SIZE}
              label={t`State`}
              description={t`With its GST state code`}
              inputWrapperOrder={BELOW}
              autoComplete="address-level1"
              required
              data={states}
              {...form.getInputProps('region')}
            />
          ) : (
            <TextInput
              label={t`State or region`}
              autoComplete="address-level1"
              {...form.getInputProps('region')}
            />
          )}
          <TextInput
            label={india ? t`GSTIN` : eu ? t`VAT number` : t`Tax id`}
            description={
              india
                ? t`Optional. 15 characters, e.g. 27AAPFU0939F1ZV: state code, PAN, entity number, Z and a check character.`
                : eu
                  ? t`Optional. A business’s VAT number, e.g. DE123456789: its invoices then say the VAT is reverse-charged.`
                  : t`Optional. Your tax registration, if any.`
            }
            inputWrapperOrder={BELOW}
            autoCapitalize="characters"
            spellCheck={false}
            {...form.getInputProps('tax_id')}
          />
        </SimpleGrid>
      </div>
      <Group justify="flex-end">
        <Button type="submit" loading={form.submitting} disabled={!form.isDirty()}>
          <Trans>Save billing details</Trans>
        </Button>
      </Group>
    </SectionCard>
  );
}
