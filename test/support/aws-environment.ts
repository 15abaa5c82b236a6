import { join } from 'node:path';

/**
 * AWS settings as the SDK's default chain reads them, for one piece of work in this process;
 * everything else AWS-related unset, and no credentials or config file (`emptyDir` has none).
 */
export async function withAws<T>(
  emptyDir: string,
  variables: Record<string, string>,
  work: () => Promise<T>,
): Promise<T> {
  const names = [
    'AWS_REGION',
    'AWS_DEFAULT_REGION',
    'AWS_PROFILE',
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'AWS_ENDPOINT_URL',
    'AWS_ENDPOINT_URL_CLOUDFORMATION',
    'AWS_ENDPOINT_URL_DYNAMODB',
    'AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER',
    'AWS_SHARED_CREDENTIALS_FILE',
    'AWS_CONFIG_FILE',
    'AWS_EC2_METADATA_DISABLED',
    'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
    'AWS_CONTAINER_CREDENTIALS_FULL_URI',
    'AWS_WEB_IDENTITY_TOKEN_FILE',
  ];
  const saved = new Map([...names, ...Object.keys(variables)].map((name) => [name, process.env[name]]));
  for (const name of names) delete process.env[name];
  // no files and no instance metadata: only what the test sets can be found
  Object.assign(
    process.env,
    {
      AWS_SHARED_CREDENTIALS_FILE: join(emptyDir, 'none'),
      AWS_CONFIG_FILE: join(emptyDir, 'none'),
      AWS_EC2_METADATA_DISABLED: 'true',
    },
    variables,
  );
  try {
    return await work();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
