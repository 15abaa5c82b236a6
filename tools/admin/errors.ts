/** What the admin tool prints on stderr (one JSON object) before exiting with 1. */
export type AdminErrorCode =
  | 'invalid_arguments'
  | 'local_not_running'
  | 'stack_not_found'
  | 'stack_incomplete'
  | 'no_credentials'
  | 'credentials_refused'
  | 'no_region'
  | 'organization_not_found'
  | 'insufficient_balance';

export class AdminError extends Error {
  constructor(
    readonly code: AdminErrorCode,
    message: string,
  ) {
    // one line: the message is the whole diagnosis
    super(message.replace(/\s*\n\s*/g, ' '));
  }
}

/**
 * AWS SDK failures an operator can act on, in one line each; anything else is rethrown as it is.
 * The SDK names them (`name`) rather than exporting a class for each.
 */
export function adminErrorOf(error: unknown, context: { stack?: string; region?: string }): AdminError | null {
  if (error instanceof AdminError) return error;
  if (!(error instanceof Error)) return null;
  const { name, message } = error;
  if (name === 'CredentialsProviderError' || /Could not load credentials/i.test(message))
    return new AdminError(
      'no_credentials',
      'No AWS credentials found: configure the usual AWS chain (AWS_PROFILE, aws sso login, or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY).',
    );
  if (/Region is missing/i.test(message))
    return new AdminError('no_region', 'No AWS region: pass --region <region> or set AWS_REGION.');
  if (
    [
      'ExpiredToken',
      'ExpiredTokenException',
      'InvalidClientTokenId',
      'UnrecognizedClientException',
      'SignatureDoesNotMatch',
    ].includes(name)
  )
    return new AdminError(
      'credentials_refused',
      `AWS refused the credentials (${name}): refresh them (e.g. aws sso login) and try again.`,
    );
  if (name === 'ValidationError' && /does not exist/i.test(message))
    return new AdminError(
      'stack_not_found',
      `Stack ${context.stack ?? ''} not found${context.region ? ` in ${context.region}` : ''}: check --stack and --region (npx cdk list names the stacks).`,
    );
  if (name === 'ResourceNotFoundException')
    return new AdminError('stack_incomplete', `The stack's table is gone: ${message}`);
  return null;
}
