import { useLingui } from '@lingui/react/macro';
import { skipToken } from '@reduxjs/toolkit/query/react';
import type { AdminUser } from '../../../../../shared/api/admin';
import { type RemoteOption, RemoteSelect } from '../../../components/forms/remote-select';
import { useGetUserSummaryQuery, useSearchUsersQuery } from '../admin-endpoints';

const toOption = (user: Pick<AdminUser, 'id' | 'email'>): RemoteOption => ({
  value: user.id,
  label: user.email,
});

/** GET /admin/users?search=…: the first ten accounts whose e-mail or name matches. */
function useUserOptions(text: string | null) {
  const answer = useSearchUsersQuery(text ?? skipToken);
  return { options: answer.data?.data.map(toOption) ?? [], loading: answer.isFetching };
}

/** The account of an id from the URL, by its e-mail. */
function useUserOption(id: string | null) {
  const answer = useGetUserSummaryQuery(id ?? skipToken);
  if (answer.data && answer.data.id === id) return toOption(answer.data);
  return answer.isError ? null : undefined;
}

/** "User": filters a list to one account, picked by e-mail. */
export function UserFilter({ value, onChange }: { value: string; onChange: (userId: string) => void }) {
  const { t } = useLingui();
  return (
    <RemoteSelect
      label={t`User`}
      placeholder={t`Any user`}
      value={value}
      onChange={onChange}
      useOptions={useUserOptions}
      useOption={useUserOption}
      nothingFound={t`No user matches`}
      clearLabel={t`Clear the user filter`}
      style={{ flex: '1 1 200px', minWidth: 0 }}
    />
  );
}
