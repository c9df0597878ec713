import { t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Checkbox, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { FormErrors } from '@mantine/form';
import { useEffect } from 'react';
import {
  createWebhookEndpointBodySchema,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_URL_MAX,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from '../../../../../shared/api/webhooks';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { FormDialog } from '../../../components/forms/form-dialog';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { useDialogForm } from '../../../components/forms/use-dialog-form';
import {
  adminWebhookMessages,
  useCreateWebhookEndpointMutation,
  useListWebhookEventTypesQuery,
  useUpdateWebhookEndpointMutation,
} from './admin-webhooks-endpoints';

interface EndpointValues {
  url: string;
  description: string;
  event_types: string[];
}

const FIELDS = ['url', 'description', 'event_types'];
const FIELD_NAMES: Record<string, string> = {
  url: 'url',
  description: 'description',
  event_types: 'event_types',
};

const valuesOf = (endpoint: WebhookEndpoint | null): EndpointValues => ({
  url: endpoint?.url ?? 'https://',
  description: endpoint?.description ?? '',
  event_types: endpoint?.event_types ?? [],
});

/** The shared schema's problem with a field, in the language shown (the schema words them in English). */
function problemText(field: string, issue: { code: string; message: string }): string {
  if (field === 'url') {
    const max = WEBHOOK_URL_MAX;
    if (issue.code === 'too_big') return t`The URL is at most ${max} characters`;
    if (issue.code === 'custom') return t`Give a full URL, e.g. https://example.com/webhooks`;
    return t`Give the endpoint’s URL`;
  }
  if (field === 'event_types' && issue.code === 'too_small') return t`Choose at least one event`;
  if (field === 'description') {
    const max = WEBHOOK_DESCRIPTION_MAX;
    return issue.code === 'too_big' ? t`At most ${max} characters` : t`Must not contain control characters`;
  }
  return issue.message;
}

function validate(values: EndpointValues): FormErrors {
  const parsed = createWebhookEndpointBodySchema.safeParse({
    url: values.url,
    description: values.description,
    event_types: values.event_types,
  });
  const errors: FormErrors = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'url');
      errors[field] ??= problemText(field, issue);
    }
  if (
    !errors.url &&
    !/^https:\/\//i.test(values.url.trim()) &&
    !/^http:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/i.test(values.url.trim())
  )
    errors.url = t`The URL must start with https://`;
  return errors;
}

export interface EndpointFormModalProps {
  /** `null` adds an endpoint; an endpoint edits its URL, description and events. */
  endpoint: WebhookEndpoint | null;
  opened: boolean;
  onClose: () => void;
  /** A new endpoint comes with its secret, to be shown once. */
  onCreated: (endpoint: WebhookEndpointWithSecret) => void;
  onSaved: () => void;
}

/** "Add endpoint" / "Edit endpoint": the URL, a description, and the events it receives. */
export function EndpointFormModal({ endpoint, opened, onClose, onCreated, onSaved }: EndpointFormModalProps) {
  const { t } = useLingui();
  const [createEndpoint] = useCreateWebhookEndpointMutation();
  const [updateEndpoint] = useUpdateWebhookEndpointMutation();
  const eventTypes = useListWebhookEventTypesQuery();
  const failedMessage = endpoint
    ? adminWebhookMessages.updateEndpointFailed
    : adminWebhookMessages.createEndpointFailed;
  const { form, restart, dialog } = useDialogForm<EndpointValues>({
    initialValues: valuesOf(endpoint),
    validate,
    fields: FIELDS,
    failedMessage,
    save: async (values) => {
      const body = {
        url: values.url.trim(),
        description: values.description.trim(),
        event_types: values.event_types as (typeof WEBHOOK_EVENT_TYPES)[number][],
      };
      try {
        if (endpoint) {
          await updateEndpoint({ id: endpoint.id, changes: body }).unwrap();
          onSaved();
        } else onCreated(await createEndpoint(body).unwrap());
      } catch (error) {
        const { message, fieldErrors, code } = toSubmitFailure(error, failedMessage, FIELD_NAMES);
        if (code?.startsWith('webhook_url')) fieldErrors.url = message;
        if (Object.keys(fieldErrors).length > 0) {
          form.setErrors(fieldErrors);
          focusFirstError(fieldErrors, form.getInputNode, FIELDS);
        }
        throw error;
      }
    },
  });

  // Fresh values each time the dialog opens; never while it is being filled in.
  useEffect(() => {
    if (opened) restart(valuesOf(endpoint));
  }, [opened, endpoint, restart]);

  const descriptions = new Map((eventTypes.data ?? []).map((entry) => [entry.type, entry.description]));

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={endpoint ? t`Edit endpoint` : t`Add endpoint`}
      size="lg"
      failureTitle={endpoint ? t`Could not save the endpoint` : t`Could not add the endpoint`}
      submitLabel={endpoint ? t`Save endpoint` : t`Add endpoint`}
      {...dialog}
    >
      <Stack gap="md">
        <TextInput
          label={t`URL`}
          description={t`Deliveries are POSTed here as JSON, signed as Standard Webhooks describe.`}
          placeholder="https://example.com/webhooks"
          required
          inputMode="url"
          autoComplete="off"
          {...form.getInputProps('url')}
        />
        <Textarea
          label={t`Description`}
          placeholder={t`What receives these events`}
          autosize
          minRows={1}
          maxLength={WEBHOOK_DESCRIPTION_MAX}
          {...form.getInputProps('description')}
        />
        <Checkbox.Group
          label={t`Events`}
          description={t`The endpoint receives only the events chosen here.`}
          required
          {...form.getInputProps('event_types')}
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mt="xs">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <Checkbox
                key={type}
                value={type}
                label={
                  <Text span size="sm" ff="monospace">
                    {type}
                  </Text>
                }
                description={descriptions.get(type)}
              />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
      </Stack>
    </FormDialog>
  );
}
