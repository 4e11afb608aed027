/** Extracts the token of an `Authorization: Bearer <token>` header; null when absent or malformed. */
export function readBearerToken(authorization: string | undefined): string | null {
  if (!authorization) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  return match ? match[1] : null;
}
