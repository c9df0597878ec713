import type { UserProfile } from '../../../../shared/api/users';
import { usersApiPaths } from '../../../../shared/routes';
import type { Services } from '../../lib/services';
import { roleFromToken } from '../../lib/token';

/** Who is signed in: the user and the role read from the access token. */
export interface SessionIdentity {
  user: UserProfile;
  role: string;
}

/** The identity behind fresh tokens; the profile is fetched when the answer does not carry it. */
export async function identityFrom(
  services: Services,
  accessToken: string,
  user: unknown,
): Promise<SessionIdentity> {
  const profile =
    (user as UserProfile | null) ?? (await services.client.http.get<UserProfile>(usersApiPaths.me)).data;
  await services.tokens.setUser(profile);
  return { user: profile, role: roleFromToken(accessToken) };
}
