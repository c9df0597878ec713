import { useCallback } from 'react';
import type { AdminUser } from '../../../../../shared/api/admin';
import type { Paged } from '../../../../../shared/api/paging';
import { adminMessages } from '../../../../../shared/messages';
import { pathWith } from '../../../../../shared/routes';
import { adminPaths } from '../admin-paths';
import { adminRead } from './admin-read';
import { type RemoteOption, RemoteSelect } from './remote-select';

const toOption = (user: Pick<AdminUser, 'id' | 'email'>): RemoteOption => ({
  value: user.id,
  label: user.email,
});

/** GET /admin/users?search=…: the first ten accounts whose e-mail or name matches. */
export async function searchUsers(text: string): Promise<RemoteOption[]> {
  const page = await adminRead<Paged<AdminUser>>(
    adminPaths.users,
    { page: 1, perPage: 10, sort: 'email', ...(text.trim() ? { search: text.trim() } : {}) },
    adminMessages.fetchUsersFailed,
  );
  return page.data.map(toOption);
}

async function resolveUser(id: string): Promise<RemoteOption | null> {
  const user = await adminRead<AdminUser>(
    pathWith(adminPaths.user, { id }),
    undefined,
    adminMessages.fetchUserFailed,
  );
  return toOption(user);
}

/** "User": filters a list to one account, picked by e-mail. */
export function UserFilter({ value, onChange }: { value: string; onChange: (userId: string) => void }) {
  return (
    <RemoteSelect
      label="User"
      placeholder="Any user"
      value={value}
      onChange={onChange}
      search={searchUsers}
      resolve={useCallback(resolveUser, [])}
      nothingFound="No user matches"
      clearLabel="Clear the user filter"
      style={{ flex: '1 1 220px', minWidth: 0 }}
    />
  );
}
