/** An access token the portal can read (it never checks signatures; only the server does). */
export function makeJwt(claims: {
  exp: number;
  role?: string;
  user_role?: string;
  sub?: string;
  jti?: string;
}): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'user-1', ...claims })}.signature`;
}

export const inSeconds = (seconds: number, from = Date.now()) => Math.floor(from / 1000) + seconds;
