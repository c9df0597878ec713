import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { z } from 'zod';
import { schemaResolver } from '../../../components/forms/schema-resolver';
import { displayText } from '../../../../../shared/api/common';
import type { UserProfile } from '../../../../../shared/api/users';
import { userMessages } from '../../../../../shared/screen-messages';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { FormAlert } from '../../../components/forms/form-alert';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { dateTimeFormat } from '../../../lib/date-format';
import { SectionCard } from '../../../components/layout/section-card';
import { useUpdateMyProfileMutation } from '../users-endpoints';

export const profileFormSchema = z.object({ full_name: displayText(100), company: displayText(100) });
type ProfileValues = z.input<typeof profileFormSchema>;
const FIELDS = ['full_name', 'company'] as const;

/** Name and company (PUT /users/me); the e-mail is shown, not edited: it is the sign-in name. */
export function ProfileDetailsCard({ profile }: { profile: UserProfile }) {
  const { t } = useLingui();
  const [updateMyProfile] = useUpdateMyProfileMutation();
  // In the language shown (the lib's formats), like every other date of the portal.
  const since = dateTimeFormat({ dateStyle: 'long' }).format(new Date(profile.created_at));
  const [failure, setFailure] = useState<string>();
  const form = useForm<ProfileValues>({
    initialValues: { full_name: profile.full_name ?? '', company: profile.company ?? '' },
    validate: schemaResolver(profileFormSchema),
    validateInputOnBlur: true,
  });

  const submit = form.onSubmit(
    async (values) => {
      setFailure(undefined);
      const { full_name, company } = profileFormSchema.parse(values);
      try {
        const saved = await updateMyProfile({
          full_name: full_name || null,
          company: company || null,
        }).unwrap();
        const next = { full_name: saved.full_name ?? '', company: saved.company ?? '' };
        form.setValues(next);
        form.resetDirty(next);
        notifications.show({
          color: 'teal',
          title: t`Profile saved`,
          message: t`Your name and company are updated.`,
        });
      } catch (error) {
        const { message, fieldErrors } = toSubmitFailure(error, userMessages.updateProfileFailed, {}, FIELDS);
        setFailure(message);
        form.setErrors(fieldErrors);
        focusFirstError(fieldErrors, form.getInputNode, FIELDS);
      }
    },
    (errors) => focusFirstError(errors, form.getInputNode, FIELDS),
  );

  return (
    <SectionCard
      headingId="profile-details-title"
      title={t`Personal details`}
      description={<Trans>Shown on your licenses and receipts. Member since {since}.</Trans>}
      onSubmit={submit}
    >
      {failure ? <FormAlert title={t`Could not save the profile`}>{failure}</FormAlert> : null}
      <TextInput
        label={t`E-mail`}
        value={profile.email}
        readOnly
        description={
          <>
            <Badge
              component="span"
              size="xs"
              variant="dot"
              color={profile.email_verified ? 'teal' : 'orange'}
              mr={6}
              style={{ verticalAlign: 'text-bottom' }}
            >
              {profile.email_verified ? t`Verified` : t`Not verified`}
            </Badge>
            <Trans>
              Your sign-in address. It cannot be changed here; contact support to move your account.
            </Trans>
          </>
        }
      />
      <TextInput label={t`Full name`} autoComplete="name" {...form.getInputProps('full_name')} />
      <TextInput label={t`Company`} autoComplete="organization" {...form.getInputProps('company')} />
      <Group justify="flex-end">
        <Button type="submit" loading={form.submitting} disabled={!form.isDirty()}>
          <Trans>Save profile</Trans>
        </Button>
      </Group>
    </SectionCard>
  );
}
