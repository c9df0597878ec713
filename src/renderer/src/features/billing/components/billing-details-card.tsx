import { Button, Group, NativeSelect, SimpleGrid, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useMemo, useState } from 'react';
import {
  type BillingDetails,
  type BillingDetailsRequest,
  billingDetailsRequestSchema,
  countryName,
} from '../../../../../shared/api/billing';
import { gstinProblem, normalizeGstin } from '../../../../../shared/gstin';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { FormAlert } from '../../../components/forms/form-alert';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { SectionCard } from '../../../components/layout/section-card';
import { billingMessages, useSaveBillingDetailsMutation } from '../billing-endpoints';

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

const FIELDS = [
  'name',
  'address_line1',
  'address_line2',
  'city',
  'postal_code',
  'region',
  'country',
  'tax_id',
] as const;

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Every ISO 3166-1 country the browser can name, by name. */
function countryOptions(): { value: string; label: string }[] {
  const options: { value: string; label: string }[] = [];
  for (const first of LETTERS)
    for (const second of LETTERS) {
      const code = `${first}${second}`;
      const label = countryName(code);
      if (label) options.push({ value: code, label });
    }
  return options.sort((a, b) => a.label.localeCompare(b.label));
}

const toValues = (details: BillingDetails | null): BillingValues => ({
  name: details?.name ?? '',
  address_line1: details?.address_line1 ?? '',
  address_line2: details?.address_line2 ?? '',
  city: details?.city ?? '',
  postal_code: details?.postal_code ?? '',
  region: details?.region ?? '',
  country: details?.country ?? 'IN',
  tax_id: details?.tax_id ?? '',
});

const schemaRules = schemaResolver(billingDetailsRequestSchema, { sync: true });

/**
 * The server's rules (the shared schema), plus the GSTIN and PIN code checks on their own: the
 * schema makes those only once every other field is valid, and a customer should see a mistyped
 * GSTIN as soon as they leave the field.
 */
function validateBilling(values: BillingValues): Record<string, ReactNode> {
  const errors: Record<string, ReactNode> = { ...schemaRules(values) };
  if (values.country.trim().toUpperCase() === 'IN') {
    const gstin = normalizeGstin(values.tax_id);
    const problem = gstin ? gstinProblem(gstin) : undefined;
    if (problem) errors['tax_id'] ??= problem;
    if (values.postal_code.trim() && !/^[1-9][0-9]{5}$/.test(values.postal_code.replace(/\s+/g, '')))
      errors['postal_code'] ??= 'An Indian PIN code has 6 digits and does not start with 0';
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

/** A billing name and address (the customer's own by default); India's tax id is a GSTIN. */
export function BillingDetailsCard({
  details,
  save,
  description = 'The name, address and tax id printed on your invoices. Invoices already issued keep the details they were issued with.',
  headingId = 'billing-details-title',
}: BillingDetailsCardProps) {
  const [saveOwnDetails] = useSaveBillingDetailsMutation();
  const saveBillingDetails = save ?? ((request: BillingDetailsRequest) => saveOwnDetails(request).unwrap());
  const [failure, setFailure] = useState<string>();
  const countries = useMemo(countryOptions, []);
  const form = useForm<BillingValues>({
    initialValues: toValues(details),
    validate: validateBilling,
    // The tax id is checked as soon as it is left (a mistyped GSTIN shows at once); the other
    // fields on save, so tabbing through an empty form does not mark every field as wrong.
    validateInputOnBlur: ['tax_id'],
  });
  const india = form.values.country === 'IN';

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
          title: 'Billing details saved',
          message: 'Invoices issued from now on carry them.',
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
    <SectionCard headingId={headingId} title="Billing details" description={description} onSubmit={submit}>
      {failure ? <FormAlert title="Could not save the billing details">{failure}</FormAlert> : null}
      <TextInput
        label="Billing name"
        description="A person or a company"
        autoComplete="organization"
        required
        {...form.getInputProps('name')}
      />
      <TextInput
        label="Address"
        autoComplete="address-line1"
        required
        {...form.getInputProps('address_line1')}
      />
      <TextInput
        label="Address, second line"
        autoComplete="address-line2"
        {...form.getInputProps('address_line2')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextInput label="City" autoComplete="address-level2" required {...form.getInputProps('city')} />
        <TextInput
          label={india ? 'PIN code' : 'Postal code'}
          autoComplete="postal-code"
          inputMode={india ? 'numeric' : 'text'}
          required
          {...form.getInputProps('postal_code')}
        />
        <TextInput
          label={india ? 'State' : 'State or region'}
          autoComplete="address-level1"
          {...form.getInputProps('region')}
        />
        <NativeSelect
          label="Country"
          autoComplete="country"
          required
          data={countries}
          {...form.getInputProps('country')}
        />
      </SimpleGrid>
      <TextInput
        label={india ? 'GSTIN' : 'Tax id'}
        description={
          india
            ? 'Optional. 15 characters, e.g. 27AAPFU0939F1ZV: state code, PAN, entity number, Z and a check character.'
            : 'Optional. Your VAT number or other tax registration.'
        }
        autoCapitalize="characters"
        spellCheck={false}
        {...form.getInputProps('tax_id')}
      />
      <Group justify="flex-end">
        <Button type="submit" loading={form.submitting} disabled={!form.isDirty()}>
          Save billing details
        </Button>
      </Group>
    </SectionCard>
  );
}
