import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { CognitoIdentityProvider } from '../../lambdas/adapters/cognito-identity.js';
import { buildContainer, type Container } from '../../lambdas/composition/container.js';
import type { MemberRecord } from '../../lambdas/domain/access/member.js';
import { readSigningKey, SIGNING_KEY_FILENAME, signDashboardToken } from '../../local/local-issuer.js';
import {
  CREDENTIALS_FILENAME,
  isAlive,
  namedRuntimeHome,
  STAND_INS_FILENAME,
  type StandInsFile,
} from '../../local/runtime-homes.js';
import type { Target } from './arguments.js';
import { AdminError, adminErrorOf } from './errors.js';

/** The service's data the command works on, through the same composition root as the API. */
export interface Workspace {
  kind: 'local' | 'stack';
  services: Container;
  /** local: a 15-minute dashboard token for a member, signed with the key npm start publishes */
  signToken?: (member: MemberRecord) => Promise<string>;
  /** a stack with a Cognito user pool: creates (and invites) the owner's user, answering the member id their tokens will name */
  registerOwner?: (email: string) => Promise<string>;
  close(): void;
}

/** The stack outputs the tool reads (lib/stack.ts, lib/signup.ts). */
export const STACK_OUTPUTS = {
  table: 'TableName',
  bucket: 'BucketName',
  userPool: 'UserPoolId',
  userPoolClient: 'UserPoolClientId',
  signInDomain: 'SignInDomainUrl',
} as const;

function notRunning(detail: string): AdminError {
  return new AdminError(
    'local_not_running',
    `the local runtime is not running (${detail}): start it in another terminal (npm start, or npm run start:assembly) and run this again, or pass --stack <name> for a deployed stack.`,
  );
}

function close(services: Container): void {
  services.clients.dynamodb.destroy();
  services.clients.dynamodbHotPath.destroy();
}

/**
 * The data of the local runtime `.local/credentials.json` names (`npm start` or `npm run
 * start:assembly`, whichever started last and still runs): the stand-ins it wrote to its home
 * once ready (and removes when it stops).
 */
export function openLocal(localDir: string): Workspace {
  const home = namedRuntimeHome(localDir);
  if (!home) throw notRunning(`no runtime's credentials in ${localDir}`);
  const standInsFile = join(home, STAND_INS_FILENAME);
  if (!existsSync(standInsFile)) throw notRunning(`no ${standInsFile}`);
  const standIns = JSON.parse(readFileSync(standInsFile, 'utf8')) as StandInsFile;
  if (!isAlive(standIns.pid)) throw notRunning(`its process ${standIns.pid} is gone`);
  const credentials = JSON.parse(readFileSync(join(home, CREDENTIALS_FILENAME), 'utf8')) as { base_url: string };
  const keyFile = join(home, SIGNING_KEY_FILENAME);
  const services = buildContainer({
    infrastructure: {
      region: 'us-east-1',
      tableName: standIns.table,
      bucketName: standIns.bucket,
      // nothing here sends to a queue
      workQueueUrl: '',
      webhookQueueUrl: '',
      endpoints: { dynamodb: standIns.dynamodb, s3: standIns.s3, sqs: standIns.s3 },
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    },
  });
  return {
    kind: 'local',
    services,
    signToken: async (member) =>
      signDashboardToken(await readSigningKey(keyFile), {
        issuer: credentials.base_url,
        orgId: member.org_id,
        role: member.role,
        userId: member.id,
      }),
    close: () => close(services),
  };
}

/**
 * A deployed stack: its outputs name the table and bucket; credentials and region come from the
 * usual AWS chain (`--region` first); `AWS_ENDPOINT_URL` sends every call to LocalStack.
 */
export async function openStack(target: Target & { stack: string }): Promise<Workspace> {
  const cloudFormation = new CloudFormationClient(target.region ? { region: target.region } : {});
  let region: string | undefined;
  try {
    region = await cloudFormation.config.region();
    const answer = await cloudFormation.send(new DescribeStacksCommand({ StackName: target.stack }));
    const outputs = new Map(
      (answer.Stacks?.[0]?.Outputs ?? []).map((output) => [output.OutputKey, output.OutputValue]),
    );
    const output = (key: string) => outputs.get(key) || null;
    const tableName = output(STACK_OUTPUTS.table);
    const bucketName = output(STACK_OUTPUTS.bucket);
    if (!tableName || !bucketName)
      throw new AdminError(
        'stack_incomplete',
        `Stack ${target.stack} has no ${STACK_OUTPUTS.table}/${STACK_OUTPUTS.bucket} outputs: is it an Automotive Inference stack, fully deployed?`,
      );
    const services = buildContainer({
      infrastructure: { region, tableName, bucketName, workQueueUrl: '', webhookQueueUrl: '' },
    });
    const userPoolId = output(STACK_OUTPUTS.userPool);
    const clientId = output(STACK_OUTPUTS.userPoolClient);
    const domainUrl = output(STACK_OUTPUTS.signInDomain);
    const cognito =
      userPoolId && clientId && domainUrl
        ? new CognitoIdentityProvider({ region, userPoolId, clientId, domainUrl })
        : null;
    return {
      kind: 'stack',
      services,
      ...(cognito ? { registerOwner: async (email: string) => (await cognito.invite({ email })).memberId } : {}),
      close: () => close(services),
    };
  } catch (error) {
    throw adminErrorOf(error, { stack: target.stack, ...(region ? { region } : {}) }) ?? error;
  } finally {
    cloudFormation.destroy();
  }
}
