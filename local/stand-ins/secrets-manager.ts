import { type JsonService, ServiceError } from './aws-json-services.js';

export interface StoredSecret {
  /** the full ARN, with the six-character suffix Secrets Manager appends to the name */
  arn: string;
  name: string;
  value: string;
}

/**
 * Secrets Manager's GetSecretValue and DescribeSecret for the SDK. A secret is found by full ARN,
 * by name, or by an ARN without the suffix (what `Secret.fromSecretNameV2` puts in a template).
 */
export class SecretsManagerStandIn implements JsonService {
  readonly targetPrefix = 'secretsmanager';

  constructor(private readonly secrets: readonly StoredSecret[]) {}

  async handle(operation: string, input: Record<string, unknown>): Promise<unknown> {
    const id = String(input.SecretId ?? '');
    const secret = this.secrets.find(
      (candidate) =>
        candidate.arn === id || candidate.name === id || candidate.arn.replace(/-[A-Za-z0-9]{6}$/, '') === id,
    );
    if (!secret)
      throw new ServiceError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
    switch (operation) {
      case 'GetSecretValue':
        return {
          ARN: secret.arn,
          Name: secret.name,
          SecretString: secret.value,
          VersionId: 'local',
          VersionStages: ['AWSCURRENT'],
          CreatedDate: 0,
        };
      case 'DescribeSecret':
        return { ARN: secret.arn, Name: secret.name };
      default:
        throw new ServiceError('UnknownOperationException', `Secrets Manager ${operation} is not run locally`);
    }
  }
}
