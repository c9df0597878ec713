import {
  Button,
  Checkbox,
  CopyButton,
  Group,
  NativeSelect,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useState } from 'react';
import { z } from 'zod';
import { PRODUCT_NAME } from '../../../../../shared/constants';
import { Notice } from '../../../components/data/alert-notice';
import { MailIcon } from '../../../components/brand/icons';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { SectionCard } from '../../../components/layout/section-card';
import { buildMailto, mailLauncher, SUPPORT_EMAIL } from '../support-details';

export const SUPPORT_TOPICS = [
  'Licensing and activation',
  'Billing and payments',
  'Account and sign-in',
  'Desktop app problem',
  'Something else',
] as const;

const NO_CONTROL = /^[^\p{Cc}]*$/u;
const contactSchema = z.object({
  topic: z.enum(SUPPORT_TOPICS),
  subject: z
    .string()
    .trim()
    .min(3, 'Write a short subject')
    .max(120, 'Keep the subject under 120 characters')
    .regex(NO_CONTROL, 'Must not contain control characters'),
  message: z
    .string()
    .trim()
    .min(20, 'Describe the problem in a few words (at least 20 characters)')
    .max(1500, 'Keep the message under 1,500 characters; attach longer logs to the e-mail'),
  includeDetails: z.boolean(),
});
type ContactValues = z.input<typeof contactSchema>;
const FIELDS = ['topic', 'subject', 'message'] as const;

/**
 * The server has no contact endpoint, so a support request is an e-mail: this writes it (topic,
 * subject, message and, if wanted, the details above) and opens the user's e-mail app with it.
 */
export function ContactSupportCard({ details }: { details: string | null }) {
  const [opened, setOpened] = useState<{ href: string; text: string } | null>(null);
  const form = useForm<ContactValues>({
    initialValues: { topic: SUPPORT_TOPICS[0], subject: '', message: '', includeDetails: true },
    validate: schemaResolver(contactSchema, { sync: true }),
    validateInputOnBlur: ['subject', 'message'],
  });

  const submit = form.onSubmit(
    (values) => {
      const { topic, subject, message, includeDetails } = contactSchema.parse(values);
      const fullSubject = `[${PRODUCT_NAME}] ${topic}: ${subject}`;
      const attached = includeDetails ? details : null;
      const href = buildMailto({ to: SUPPORT_EMAIL, subject: fullSubject, message, details: attached });
      const text = `Subject: ${fullSubject}\n\n${message}${attached ? `\n\n--\n${attached}` : ''}`;
      setOpened({ href, text });
      mailLauncher.open(href);
    },
    (errors) => focusFirstError(errors, form.getInputNode, FIELDS),
  );

  return (
    <SectionCard
      headingId="contact-support-title"
      title="Contact support"
      description={
        SUPPORT_EMAIL ? (
          <>
            Your e-mail app opens with the request addressed to <strong>{SUPPORT_EMAIL}</strong>; check it and
            press send.
          </>
        ) : (
          'Your e-mail app opens with the request written out; add your support contact’s address and press send.'
        )
      }
      onSubmit={submit}
    >
      <NativeSelect size="md" label="Topic" data={[...SUPPORT_TOPICS]} {...form.getInputProps('topic')} />
      <TextInput label="Subject" required maxLength={120} {...form.getInputProps('subject')} />
      <Textarea
        size="md"
        label="Message"
        description="What happened, what you expected, and the steps that lead there."
        required
        rows={5}
        maxLength={1500}
        {...form.getInputProps('message')}
      />
      <Checkbox
        label="Include the app and account information"
        description="The app and account information on this page: versions, ids and the masked license key."
        {...form.getInputProps('includeDetails', { type: 'checkbox' })}
      />
      {opened ? (
        <Notice color="blue" variant="light" icon={<MailIcon size={20} />} title="E-mail ready" role="status">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              Your e-mail app should have opened with the message. Nothing opened (or this is the desktop
              app)? Copy the message and send it from any e-mail account.
            </Text>
            <CopyButton value={opened.text}>
              {({ copied, copy }) => (
                <Button size="xs" variant="white" onClick={copy}>
                  {copied ? 'Copied' : 'Copy message'}
                </Button>
              )}
            </CopyButton>
          </Stack>
        </Notice>
      ) : null}
      <Group justify="flex-end">
        <Button type="submit" leftSection={<MailIcon size={16} />}>
          Write e-mail
        </Button>
      </Group>
    </SectionCard>
  );
}
