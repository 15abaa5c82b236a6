import { Annotations, CfnOutput, Lazy, SecretValue, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { RouteDefinition } from '../lambdas/http/routes/define.js';
import { Api } from './api.js';
import { type Batches, BatchesStack } from './batches.js';
import { Data } from './data.js';
import { Firewall } from './firewall.js';
import { Inspections } from './inspections.js';
import { JobStream } from './job-stream.js';
import {
  importRuntimeSecrets,
  inferencePlaneEnvironment,
  type ManagementSettings,
  type UserPoolSettings,
} from './management-settings.js';
import { type Observability, ObservabilityStack } from './observability.js';
import { planeEndpointsValue } from './plane-declaration.js';
import { DEFAULT_PRODUCTION_SETTINGS, type ProductionSettings } from './production-settings.js';
import { Queues } from './queues.js';
import { generatedCallbackSecret, ReferencePlane } from './reference-plane.js';
import { Retention } from './retention.js';
import { Signup } from './signup.js';
import { apiOriginReadTimeoutSeconds } from './wait-ceiling.js';
import { type WebSite, WebSiteStack } from './web-site.js';
import { DELIVERY_TIMEOUT, Webhooks } from './webhooks.js';
import { WORKER_TIMEOUT, Workers } from './workers.js';

export interface AutomotiveInferenceStackProps extends StackProps {
  /** base of every `doc_url` in error envelopes; default: the API's own `/docs` route */
  docsUrl?: string;
  management?: ManagementSettings;
  /** `-c integrationTimeoutSeconds=<n>` (32 to 901): the inference routes' integration timeout; the `wait=true` ceiling is then 30 s, else 27 s */
  integrationTimeoutSeconds?: number;
  /** the route table; default ROUTES (the resource-budget test adds a route) */
  routes?: readonly RouteDefinition[];
  /** the firewall, custom domain, alarm address and stage throttle (lib/production-settings.ts); default every one off */
  production?: ProductionSettings;
}

/**
 * With a user pool of its own the stack issues the dashboard's tokens: the JWT routes verify
 * against the pool, and the member and sign-in routes use it as their identity provider. Its app
 * client needs the dashboard's address, which exists only once the web site does, so the audience
 * is read when the template is written.
 */
function signInSettings(
  settings: ManagementSettings,
  signup: Signup | undefined,
): { management: ManagementSettings; userPool?: UserPoolSettings } {
  if (!signup) return { management: settings };
  const clientId = Lazy.string({ produce: () => signup.client.userPoolClientId });
  return {
    management: { ...settings, jwtIssuer: signup.issuer, jwtAudience: clientId, jwksUrl: undefined },
    userPool: {
      userPoolId: signup.userPool.userPoolId,
      userPoolArn: signup.userPool.userPoolArn,
      clientId,
      domainUrl: signup.domain.baseUrl(),
    },
  };
}

/** The value CloudFront sends in its origin header: generated, read by CloudFormation only (dynamic references). */
function originVerifySecret(scope: Construct): Secret {
  const secret = new Secret(scope, 'OriginVerifySecret', {
    description: 'CloudFront sends it to the API stage, whose web ACL requires it on /v1 and /mgmt',
    generateSecretString: { passwordLength: 48, excludePunctuation: true },
  });
  Validations.of(secret).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      'Read only by CloudFormation (dynamic references in the distribution’s origin header and the web ACL’s rule), never by a function; docs/internals/deploy.md says how to change it.',
  });
  return secret;
}

/** The whole service on AWS: data, work queue, workers and the REST API built from the route table. */
export class AutomotiveInferenceStack extends Stack {
  readonly data: Data;
  readonly queues: Queues;
  readonly api: Api;
  readonly workers: Workers;
  readonly inspections: Inspections;
  readonly batches: Batches;
  readonly webhooks: Webhooks;
  /** the hourly retention worker */
  readonly retention: Retention;
  readonly observability: Observability;
  readonly webSite: WebSite;
  /** with `referencePlane`: the deployed reference inference plane */
  readonly referencePlane: ReferencePlane | undefined;
  /** with `signup: 'cognito'`: the user pool, its hosted UI and triggers */
  readonly signup: Signup | undefined;
  /** the regional web ACL on the API stage (default on; `-c firewall=false` leaves it out) */
  readonly firewall: Firewall | undefined;

  constructor(scope: Construct, id: string, props: AutomotiveInferenceStackProps = {}) {
    super(scope, id, {
      description: 'Automotive inference API: REST API, route functions, work queue, workers, table and bucket',
      ...props,
    });

    this.data = new Data(this, 'Data');
    this.queues = new Queues(this, 'Queues', { workerTimeout: WORKER_TIMEOUT, deliveryTimeout: DELIVERY_TIMEOUT });
    const resources = {
      table: this.data.table,
      bucket: this.data.bucket,
      workQueue: this.queues.workQueue,
      fastWorkQueue: this.queues.fastWorkQueue,
      webhookQueue: this.queues.webhookQueue,
    };
    new JobStream(this, 'JobStream', {
      table: this.data.table,
      lanes: { standard: this.queues.workQueue, fast: this.queues.fastWorkQueue },
      deadLetterQueue: this.queues.streamDeadLetterQueue,
    });
    const given = props.management ?? {};
    // the reference plane needs a shared secret: the one named, or one the stack generates under a
    // name of its own, which every stack then imports by that name like a named one
    // a contradiction between plane settings fails the synth here, before anything is built
    const planeEndpoints = planeEndpointsValue(given);
    const bundledPlane = given.referencePlane ? 'reference' : given.fixturePlane ? 'fixture' : undefined;
    const generated =
      bundledPlane && !given.inferenceCallbackSecretName
        ? generatedCallbackSecret(this, `${this.stackName}/inference-callback`)
        : undefined;
    const settings: ManagementSettings = generated ? { ...given, inferenceCallbackSecretName: generated.name } : given;
    const secrets = importRuntimeSecrets(this, settings);
    this.referencePlane = bundledPlane
      ? new ReferencePlane(this, bundledPlane === 'reference' ? 'ReferencePlane' : 'FixturePlane', {
          ...resources,
          secret: secrets.inferenceCallback!,
          kind: bundledPlane,
        })
      : undefined;
    if (generated) this.referencePlane?.fn.node.addDependency(generated.secret);
    // the stack's own pool issues the dashboard's tokens: an issuer named as well is not used, and the synth says so
    if (settings.signup === 'cognito' && (settings.jwtIssuer || settings.jwtAudience || settings.jwksUrl))
      Annotations.of(this).addWarningV2(
        'ais:signup-issuer',
        '-c signup=cognito: the stack’s user pool issues the dashboard’s tokens; -c jwtIssuer, jwtAudience and jwksUrl are not used.',
      );
    const production = props.production ?? DEFAULT_PRODUCTION_SETTINGS;
    // the sign-in settings shape the stack's own user pool: without one they change nothing, and the synth says so
    if (settings.signup !== 'cognito' && (production.mfa === 'required' || production.threatProtection))
      Annotations.of(this).addWarningV2(
        'ais:sign-in-settings-unused',
        '-c mfa and -c threatProtection apply to the stack’s own user pool: add -c signup=cognito, or set them at your issuer.',
      );
    this.signup =
      settings.signup === 'cognito'
        ? new Signup(this, 'Signup', {
            ...resources,
            mfa: production.mfa,
            ...(production.threatProtection ? { threatProtection: production.threatProtection } : {}),
            docsUrl: Lazy.string({ produce: () => this.api.docsUrl }),
            ...(settings.signupDomainPrefix ? { domainPrefix: settings.signupDomainPrefix } : {}),
          })
        : undefined;
    const { management, userPool } = signInSettings(
      this.referencePlane ? { ...settings, inferencePlaneUrl: this.referencePlane.url } : settings,
      this.signup,
    );
    this.api = new Api(this, 'Api', {
      ...resources,
      stageThrottle: production.stageThrottle,
      ...(props.docsUrl ? { docsUrl: props.docsUrl } : {}),
      management,
      ...(userPool ? { userPool } : {}),
      ...(props.integrationTimeoutSeconds !== undefined
        ? { integrationTimeoutSeconds: props.integrationTimeoutSeconds }
        : {}),
      ...(props.routes ? { routes: props.routes } : {}),
    });
    this.workers = new Workers(this, 'Workers', {
      ...resources,
      scheduleDeadLetterQueue: this.queues.scheduleDeadLetterQueue,
      docsUrl: this.api.docsUrl,
      environment: inferencePlaneEnvironment(management, this.api.completionCallbackUrl, secrets),
    });
    // the workers sign live-job submissions with the callback secret, read at run time
    if (management.inferencePlaneUrl && secrets.inferenceCallback) {
      for (const worker of [this.workers.consumer, this.workers.sweeper]) secrets.inferenceCallback.grantRead(worker);
    }

    // it answers task tokens: a role of its own, so the grant reaches no other function
    const completion = this.api.routeFunctions.dedicated('receive-completion');
    this.inspections = new Inspections(this, 'Inspections', {
      ...resources,
      docsUrl: this.api.docsUrl,
      starters: [this.workers.consumer, this.workers.sweeper],
      supervisors: [this.workers.sweeper],
      stoppers: [this.workers.consumer, this.workers.sweeper],
      settlers: [this.workers.consumer, this.workers.sweeper, ...(completion ? [completion] : [])],
    });

    // `POST /v1/batches` starts a batch's run: a role of its own, so the grant reaches no other function
    const createBatch = this.api.routeFunctions.dedicated('create-batch');
    this.batches = new BatchesStack(this, 'Batches', {
      ...resources,
      docsUrl: this.api.docsUrl,
      stackName: this.stackName,
      starters: createBatch ? [createBatch] : [],
      planeEndpoints,
    }).batches;

    this.webhooks = new Webhooks(this, 'Webhooks', {
      ...resources,
      webhookQueue: this.queues.webhookQueue,
      docsUrl: this.api.docsUrl,
    });

    this.retention = new Retention(this, 'Retention', {
      ...resources,
      docsUrl: this.api.docsUrl,
      scheduleDeadLetterQueue: this.queues.scheduleDeadLetterQueue,
    });

    this.observability = new ObservabilityStack(this, 'Observability', {
      restApi: this.api.restApi,
      workQueue: this.queues.workQueue,
      fastWorkQueue: this.queues.fastWorkQueue,
      deadLetterQueues: {
        Work: this.queues.workDeadLetterQueue,
        Webhook: this.queues.webhookDeadLetterQueue,
        Schedule: this.queues.scheduleDeadLetterQueue,
        Stream: this.queues.streamDeadLetterQueue,
        BatchEvents: this.batches.deadLetterQueue,
      },
      scheduledWorkers: { Sweeper: this.workers.sweeper, Retention: this.retention.worker },
      inspections: this.inspections.stateMachine,
      ...(production.alarmEmail ? { alarmEmail: production.alarmEmail } : {}),
    }).observability;

    // CloudFront's secret header, which the stage's web ACL requires on /v1 and /mgmt (docs/internals/deploy.md, "Firewall")
    const originSecret = production.originProtection ? originVerifySecret(this) : undefined;
    this.firewall = production.firewall
      ? new Firewall(this, 'Firewall', {
          restApi: this.api.restApi,
          rateLimit: production.firewallRateLimit,
          ...(originSecret ? { originSecret: SecretValue.secretsManager(originSecret.secretArn).unsafeUnwrap() } : {}),
        })
      : undefined;
    if (!this.firewall)
      Validations.of(this.api.restApi).acknowledge({
        id: 'AwsSolutions-APIG3',
        reason: 'Deployed with -c firewall=false: no regional web ACL on the stage, by the deployer’s choice.',
      });

    this.webSite = new WebSiteStack(this, 'WebSite', {
      restApi: this.api.restApi,
      apiReadTimeoutSeconds: apiOriginReadTimeoutSeconds(this.api.wait),
      ...(production.domainName && production.certificateArn
        ? {
            domain: {
              name: production.domainName,
              certificateArn: production.certificateArn,
              ...(production.hostedZoneId ? { hostedZoneId: production.hostedZoneId } : {}),
            },
          }
        : {}),
      ...(production.cloudFrontWebAclArn ? { webAclArn: production.cloudFrontWebAclArn } : {}),
      ...(originSecret ? { originSecretArn: originSecret.secretArn } : {}),
      ...(this.signup ? { signInOrigin: this.signup.domain.baseUrl() } : {}),
    }).site;
    const siteUrl = `https://${production.domainName ?? this.webSite.distribution.distributionDomainName}`;
    // the hosted UI sends people back to the dashboard, on the distribution (and any address the dashboardUrl context names)
    this.signup?.addDashboardClient([
      `https://${this.webSite.distribution.distributionDomainName}/dashboard`,
      ...(production.domainName ? [`https://${production.domainName}/dashboard`] : []),
      ...(management.dashboardUrl ? [management.dashboardUrl] : []),
    ]);

    new CfnOutput(this, 'SiteUrl', {
      description: 'CloudFront: the API, /docs and /dashboard on one origin',
      value: siteUrl,
    });
    new CfnOutput(this, 'DistributionDomainName', {
      description: 'CloudFront’s own name: the target of the custom domain’s DNS record (CNAME or alias)',
      value: this.webSite.distribution.distributionDomainName,
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      description: 'SNS topic every alarm notifies (in alarm and back to OK): subscribe a pager or a chat to it',
      value: this.observability.topic.topicArn,
    });
    new CfnOutput(this, 'ApiUrl', { description: 'Base URL of the API (append /v1/…)', value: this.api.restApi.url });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'BucketName', { value: this.data.bucket.bucketName });
    new CfnOutput(this, 'WorkQueueUrl', { value: this.queues.workQueue.queueUrl });
    new CfnOutput(this, 'FastWorkQueueUrl', { value: this.queues.fastWorkQueue.queueUrl });
    new CfnOutput(this, 'InspectionStateMachineArn', { value: this.inspections.stateMachine.stateMachineArn });
    new CfnOutput(this, 'BatchStateMachineArn', { value: this.batches.stateMachine.stateMachineArn });
    if (this.referencePlane)
      new CfnOutput(this, bundledPlane === 'fixture' ? 'FixturePlaneUrl' : 'ReferencePlaneUrl', {
        description:
          bundledPlane === 'fixture'
            ? 'The fixture inference plane (wiring tests only): where live jobs are submitted'
            : 'The reference inference plane: where live jobs are submitted',
        value: this.referencePlane.url,
      });
  }
}
