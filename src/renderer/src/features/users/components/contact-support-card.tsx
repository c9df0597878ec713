import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Checkbox, Code, Group, NativeSelect, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { z } from 'zod';
import { schemaResolver } from '../../../components/forms/schema-resolver';
import {
  SUPPORT_MESSAGE_MAX,
  SUPPORT_SUBJECT_MAX,
  SUPPORT_TOPICS,
  supportRequestBodySchema,
  type SupportRequestReceipt,
  type SupportTopic,
} from '../../../../../shared/api/support';
import { Notice } from '../../../components/data/alert-notice';
import { CheckIcon, MailIcon } from '../../../components/brand/icons';
import { ErrorAlert } from '../../../components/forms/error-alert';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { SectionCard } from '../../../components/layout/section-card';
import { sendSupportRequestFailed, useSendSupportRequestMutation } from '../users-endpoints';

const contactSchema = supportRequestBodySchema
  .pick({ topic: true, subject: true, message: true })
  .extend({ includeDetails: z.boolean() });
type ContactValues = z.input<typeof contactSchema>;
const FIELDS = ['topic', 'subject', 'message'] as const;
/** The topics in the language shown; the English stays the value sent, which support's mail is sorted by. */
const TOPIC_LABELS: Record<SupportTopic, MessageDescriptor> = {
  'Licensing and activation': msg`Licensing and activation`,
  'Billing and payments': msg`Billing and payments`,
  'Account and sign-in': msg`Account and sign-in`,
  'Desktop app problem': msg`Desktop app problem`,
  'Something else': msg`Something else`,
};
const INITIAL: ContactValues = { topic: SUPPORT_TOPICS[0], subject: '', message: '', includeDetails: false };

/** What the customer is told once the request is stored: its reference, and where the reply comes. */
function RequestSent({ receipt, onAnother }: { receipt: SupportRequestReceipt; onAnother: () => void }) {
  const { t } = useLingui();
  const reference = receipt.reference;
  const replyTo = receipt.reply_to;
  return (
    <Notice
      color="teal"
      variant="light"
      icon={<CheckIcon size={20} />}
      title={t`Request sent`}
      role="status"
      data-testid="support-request-sent"
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          <Trans>
            Your reference is <Code fz="sm">{reference}</Code>. Support replies by e-mail to{' '}
            <strong style={{ overflowWrap: 'anywhere' }}>{replyTo}</strong>; quote the reference if you write
            again about this.
          </Trans>
        </Text>
        <Text size="sm">
          {receipt.diagnostics_included
            ? t`The app and account information was sent with it.`
            : t`The app and account information was not sent.`}
        </Text>
        <Button size="xs" variant="white" onClick={onAnother}>
          <Trans>Write another request</Trans>
        </Button>
      </Stack>
    </Notice>
  );
}

/**
 * Sends a support request to the server (POST /support/requests), which keeps it for support and
 * mails it to them; the app and account information goes with it only when the box is ticked.
 */
export function ContactSupportCard({ details }: { details: string | null }) {
  const { t, i18n } = useLingui();
  const [send, { isLoading }] = useSendSupportRequestMutation();
  const [receipt, setReceipt] = useState<SupportRequestReceipt | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<ContactValues>({
    initialValues: INITIAL,
    validate: schemaResolver(contactSchema),
    validateInputOnBlur: ['subject', 'message'],
  });

  const submit = form.onSubmit(
    async (values) => {
      const { topic, subject, message, includeDetails } = contactSchema.parse(values);
      setProblem(null);
      try {
        const sent = await send({
          topic,
          subject,
          message,
          ...(includeDetails && details ? { diagnostics: details } : {}),
        }).unwrap();
        setReceipt(sent);
        form.setValues(INITIAL);
        form.resetDirty();
      } catch (error) {
        const failure = toSubmitFailure(error, sendSupportRequestFailed, {}, FIELDS);
        form.setErrors(failure.fieldErrors);
        setProblem(failure.message);
      }
    },
    (errors) => focusFirstError(errors, form.getInputNode, FIELDS),
  );

  return (
    <SectionCard
      headingId="contact-support-title"
      title={t`Contact support`}
      description={t`Your request goes to our support team from here; they reply by e-mail to your account’s address.`}
      onSubmit={receipt ? undefined : submit}
    >
      {receipt ? (
        <RequestSent receipt={receipt} onAnother={() => setReceipt(null)} />
      ) : (
        <>
          <NativeSelect
            size="md"
            label={t`Topic`}
            data={SUPPORT_TOPICS.map((topic) => ({ value: topic, label: i18n._(TOPIC_LABELS[topic]) }))}
            {...form.getInputProps('topic')}
          />
          <TextInput
            label={t`Subject`}
            required
            maxLength={SUPPORT_SUBJECT_MAX}
            {...form.getInputProps('subject')}
          />
          <Textarea
            size="md"
            label={t`Message`}
            description={t`What happened, what you expected, and the steps that lead there.`}
            required
            rows={5}
            maxLength={SUPPORT_MESSAGE_MAX}
            {...form.getInputProps('message')}
          />
          <Checkbox
            label={t`Include the app and account information`}
            description={t`The app and account information on this page: versions, ids and the masked license key.`}
            disabled={!details}
            {...form.getInputProps('includeDetails', { type: 'checkbox' })}
          />
          {problem ? <ErrorAlert title={t`Not sent`}>{problem}</ErrorAlert> : null}
          <Group justify="flex-end">
            <Button type="submit" leftSection={<MailIcon size={16} />} loading={isLoading}>
              <Trans>Send request</Trans>
            </Button>
          </Group>
        </>
      )}
    </SectionCard>
  );
}
