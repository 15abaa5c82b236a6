import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { lazy } from './aws-sdk.js';

/**
 * Secrets are fetched at run time by ARN (never carried in a Lambda environment) and cached
 * for at most this long, so a rotation reaches every warm function within five minutes.
 */
export const SECRET_MAX_AGE_SECONDS = 300;

// Imported on first use, not at load: every Lambda bundles this module through the container,
// few of them ever read a secret, and the SDK client is a measurable part of a cold import.
const secretsManager = lazy(async () => {
  const sdk = await import('@aws-sdk/client-secrets-manager');
  const client: SecretsManagerClient = new sdk.SecretsManagerClient({});
  return { client, GetSecretValueCommand: sdk.GetSecretValueCommand };
});

const cache = new Map<string, { value: Promise<string>; expiresAt: number }>();

async function fetchSecretString(arn: string): Promise<string> {
  const { client, GetSecretValueCommand } = await secretsManager();
  const output = await client.send(new GetSecretValueCommand({ SecretId: arn }));
  const value = output.SecretString;
  if (typeof value !== 'string' || value === '') throw new Error(`secret ${arn} holds no string`);
  return value;
}

/** The secret's string, from a cache entry younger than SECRET_MAX_AGE_SECONDS or else fetched; a failed fetch is not cached. */
export function secretString(arn: string): Promise<string> {
  const now = Date.now();
  const hit = cache.get(arn);
  if (hit && hit.expiresAt > now) return hit.value;
  const entry = { value: fetchSecretString(arn), expiresAt: now + SECRET_MAX_AGE_SECONDS * 1000 };
  cache.set(arn, entry);
  entry.value.catch(() => {
    if (cache.get(arn) === entry) cache.delete(arn);
  });
  return entry.value;
}

export async function secretJson(arn: string): Promise<Record<string, unknown>> {
  const value: unknown = JSON.parse(await secretString(arn));
  if (typeof value !== 'object' || value === null) throw new Error(`secret ${arn} holds no JSON object`);
  return value as Record<string, unknown>;
}
