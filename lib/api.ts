import { Aws, Duration, Stack, Validations } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  EndpointType,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { isCatchAll, type RouteDefinition } from '../lambdas/http/routes/define.js';
import { ROUTES } from '../lambdas/http/routes/index.js';
import type { DataResources } from './access.js';
import { addGatewayResponses } from './gateway-responses.js';
import { isDeployed, type ManagementSettings, type UserPoolSettings } from './management-settings.js';
import { ACCOUNT_THROTTLE } from './production-settings.js';
import { isInferenceRoute, RouteFunctionsStack } from './route-functions.js';
import {
  acknowledgeMethodFindings,
  addRouteMethods,
  methodFingerprint,
  ROUTE_SURFACES,
  RouteMethodsStack,
  surfaceOf,
} from './route-methods.js';
import { type WaitCeiling, waitCeiling } from './wait-ceiling.js';

/** The one stage; part of every URL (`…/prod/v1/plate.read`). */
export const STAGE_NAME = 'prod';

/**
 * Routes anyone may call without a credential (`auth: 'none'`: the OpenAPI document, error pages, the
 * key set, the sign-in options, the catch-all's 404) get a throttle of their own: no per-plan limit stands in front of
 * them, so a flood on one of them cannot take the stage's whole rate.
 */
export const PUBLIC_ROUTE_THROTTLE = { rateLimit: 50, burstLimit: 100 } as const;

export interface ApiProps extends DataResources {
  /** base of every `doc_url`; default: the API's own `/docs` route */
  docsUrl?: string;
  management?: ManagementSettings;
  /** `-c integrationTimeoutSeconds`: the inference routes' integration timeout, hence the wait ceiling */
  integrationTimeoutSeconds?: number;
  /** the route table; default ROUTES (tests add a route to measure what one costs) */
  routes?: readonly RouteDefinition[];
  /** the stack's Cognito user pool (`signup: 'cognito'`): the member and sign-in routes' identity provider */
  userPool?: UserPoolSettings;
  /** the stage-wide throttle (`-c stageRateLimit`, `-c stageBurstLimit`); default the account's (ACCOUNT_THROTTLE) */
  stageThrottle?: { rateLimit: number; burstLimit: number };
}

/**
 * The REST API, built from the route table (lambdas/http/routes/index.ts), never a hand-kept list:
 * its resources and methods here, the functions serving them in a nested stack
 * (lib/route-functions.ts). Authentication happens in the functions (API keys, JWTs, signatures).
 */
export class Api extends Construct {
  readonly restApi: RestApi;
  readonly docsUrl: string;
  /** `POST /internal/v1/completions` of this API: the inference plane's callback */
  readonly completionCallbackUrl: string;
  readonly routeFunctions: RouteFunctionsStack;
  readonly wait: WaitCeiling;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH });
    const management = props.management ?? {};
    const routes = (props.routes ?? ROUTES).filter((r) => isDeployed(r, management));
    const stageThrottle = props.stageThrottle ?? ACCOUNT_THROTTLE;
    this.restApi = new RestApi(this, 'RestApi', {
      // named after the stack: the 5xx alarm selects on ApiName, which must not match another API of the account
      restApiName: `${Stack.of(this).stackName}-api`,
      description: 'Automotive inference API',
      endpointTypes: [EndpointType.REGIONAL],
      // multipart uploads must reach the function byte for byte (base64-encoded)
      binaryMediaTypes: ['multipart/form-data'],
      cloudWatchRole: true,
      deployOptions: {
        stageName: STAGE_NAME,
        tracingEnabled: true,
        metricsEnabled: true,
        loggingLevel: MethodLoggingLevel.ERROR,
        // bodies may carry customer images and keys: never log them
        dataTraceEnabled: false,
        throttlingRateLimit: stageThrottle.rateLimit,
        throttlingBurstLimit: stageThrottle.burstLimit,
        methodOptions: Object.fromEntries(
          routes
            .filter((route) => route.auth === 'none')
            .map((route) => [
              // a catch-all's key names every method of its resource (`/{proxy+}/*`, the root's `//*`)
              `${route.path}/${isCatchAll(route) ? '*' : route.method}`,
              {
                throttlingRateLimit: Math.min(PUBLIC_ROUTE_THROTTLE.rateLimit, stageThrottle.rateLimit),
                throttlingBurstLimit: Math.min(PUBLIC_ROUTE_THROTTLE.burstLimit, stageThrottle.burstLimit),
              },
            ]),
        ),
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.custom(
          JSON.stringify({
            request_id: `req_${AccessLogField.contextRequestId()}`,
            extended_request_id: AccessLogField.contextExtendedRequestId(),
            time: AccessLogField.contextRequestTime(),
            ip: AccessLogField.contextIdentitySourceIp(),
            user_agent: AccessLogField.contextIdentityUserAgent(),
            method: AccessLogField.contextHttpMethod(),
            resource: AccessLogField.contextResourcePath(),
            path: AccessLogField.contextPath(),
            protocol: AccessLogField.contextProtocol(),
            status: AccessLogField.contextStatus(),
            response_length: AccessLogField.contextResponseLength(),
            latency_ms: AccessLogField.contextResponseLatency(),
            integration_latency_ms: AccessLogField.contextIntegrationLatency(),
            integration_status: AccessLogField.contextIntegrationStatus(),
            error: AccessLogField.contextErrorMessage(),
            error_type: AccessLogField.contextErrorResponseType(),
          }),
        ),
      },
    });

    // Built from the API id and the literal stage name, not from `restApi.url`: that URL refers to
    // the stage, which depends on every method and so on every function — a cycle.
    const stageUrl = `https://${this.restApi.restApiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}/${STAGE_NAME}`;
    this.docsUrl = props.docsUrl ?? `${stageUrl}/docs`;
    this.completionCallbackUrl = `${stageUrl}${ROUTES.find((route) => route.id === 'receive-completion')!.path}`;

    this.wait = waitCeiling(props.integrationTimeoutSeconds);
    this.routeFunctions = new RouteFunctionsStack(this, 'RouteFunctions', {
      routes,
      resources: props,
      docsUrl: this.docsUrl,
      restApiId: this.restApi.restApiId,
      stageName: STAGE_NAME,
      management,
      wait: this.wait,
      ...(props.userPool ? { userPool: props.userPool } : {}),
    });
    const timeoutOf = (route: RouteDefinition) =>
      isInferenceRoute(route) ? Duration.seconds(this.wait.integrationTimeoutSeconds) : undefined;
    const functionFor = (handler: string) => this.routeFunctions.functionFor(handler);
    addRouteMethods(this.restApi.root, {
      routes: routes.filter((route) => surfaceOf(route) === undefined),
      functionFor,
      timeoutOf,
    });
    acknowledgeMethodFindings(this.restApi);
    const deployment = this.restApi.latestDeployment!;
    for (const surface of Object.values(ROUTE_SURFACES)) {
      const served = routes.filter((route) => surfaceOf(route) === surface);
      if (served.length === 0) continue;
      const methods = new RouteMethodsStack(this, surface, {
        restApi: this.restApi,
        routes: served,
        functionFor,
        timeoutOf,
      });
      // the stage serves what the deployment snapshots: after the nested methods exist, and anew when one changes
      deployment.node.addDependency(methods);
      deployment.addToLogicalId(served.map((route) => methodFingerprint(route, timeoutOf(route))));
    }

    addGatewayResponses(this.restApi, this.docsUrl);
    this.acknowledgeFindings();
  }

  private acknowledgeFindings(): void {
    const api = Validations.of(this.restApi);
    api.acknowledge({
      id: 'AwsSolutions-APIG2',
      reason:
        'Requests are validated in the functions with the same zod schemas that generate the OpenAPI document, so errors come back in the error envelope with the offending param.',
    });
    Validations.of(this.restApi.node.findChild('CloudWatchRole')).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason:
        "API Gateway's account-level role for execution and access logging; AWS's managed policy is the documented one.",
    });
  }
}
