import { getSecret } from '@aws-lambda-powertools/parameters/secrets';

/**
 * Secrets are fetched at run time by ARN (never carried in a Lambda environment) and cached
 * for at most this long, so a rotation reaches every warm function within five minutes.
 */
export const SECRET_MAX_AGE_SECONDS = 300;

export async function secretString(arn: string): Promise<string> {
  const value = await getSecret(arn, { maxAge: SECRET_MAX_AGE_SECONDS });
  if (typeof value !== 'string' || value === '') throw new Error(`secret ${arn} holds no string`);
  return value;
}

export async function secretJson(arn: string): Promise<Record<string, unknown>> {
  const value = await getSecret(arn, { maxAge: SECRET_MAX_AGE_SECONDS, transform: 'json' });
  if (typeof value !== 'object' || value === null) throw new Error(`secret ${arn} holds no JSON object`);
  return value as Record<string, unknown>;
}
