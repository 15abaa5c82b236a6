import { Aws, Duration, Stack, Validations } from 'aws-cdk-lib';
import { AccessLogField, AccessLogFormat, EndpointType, LambdaIntegration, LogGroupLogDestination, MethodLoggingLevel, RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { RouteDefinition } from '../lambdas/http/routes/define.js';
import { ROUTES } from '../lambdas/http/routes/index.js';
import { grantRouteSecrets, isDeployed, managementEnvironment, type ManagementSettings, type RuntimeSecrets } from './management-settings.js';
import { grantDataAccess, type DataResources } from './access.js';
import { serviceEnvironment, serviceFunction } from './functions.js';
import { addGatewayResponses } from './gateway-responses.js';

/** The one stage; part of every URL (`…/prod/v1/plate.read`). */
export const STAGE_NAME = 'prod';

/** Stage-wide throttling: a ceiling for the whole API in front of the per-plan limits the service enforces. */
export const THROTTLING = { rateLimit: 100, burstLimit: 200 } as const;

export interface ApiProps extends DataResources {
  /** base of every `doc_url`; default: the API's own `/docs` route */
  docsUrl?: string;
  management?: ManagementSettings;
  /** the secrets routes read at run time (imported once by the stack) */
  secrets?: RuntimeSecrets;
}

/**
 * The REST API, built from the route table (lambdas/http/routes.ts): one function per route,
 * never a hand-kept list. Authentication happens in the functions (API keys, JWTs, signatures).
 */
export class Api extends Construct {
  readonly restApi: RestApi;
  readonly docsUrl: string;
  /** `POST /internal/v1/completions` of this API: the inference plane's callback */
  readonly completionCallbackUrl: string;
  /** route id → its function */
  readonly functions = new Map<string, NodejsFunction>();

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH });
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
        throttlingRateLimit: THROTTLING.rateLimit,
        throttlingBurstLimit: THROTTLING.burstLimit,
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
    this.completionCallbackUrl = `${stageUrl}${ROUTES.find((route) => route.handler === 'receive-completion')!.path}`;

    const environment = serviceEnvironment(props, this.docsUrl);
    const routes = new Construct(this, 'Routes');
    const management = props.management ?? {};
    for (const route of ROUTES.filter((r) => isDeployed(r, management))) {
      const fn = this.routeFunction(routes, route, { ...environment, ...managementEnvironment(route, management, props.secrets) });
      grantRouteSecrets(fn, route, props.secrets ?? {});
      grantDataAccess(fn, props, route.access);
      this.functions.set(route.id, fn);
      // resourceForPath creates (or reuses) one resource per segment: `v1`, `plate.read`, `jobs`, `{id}`…
      this.restApi.root.resourceForPath(route.path).addMethod(route.method, new LambdaIntegration(fn, { allowTestInvoke: false }), {
        operationName: route.id,
      });
    }

    addGatewayResponses(this.restApi, this.docsUrl);
    this.acknowledgeFindings();
  }

  private routeFunction(scope: Construct, route: RouteDefinition, environment: Record<string, string>): NodejsFunction {
    return serviceFunction(scope, route.id, {
      name: route.id,
      entry: `lambdas/http/handlers/${route.handler}.ts`,
      description: `${route.method} ${route.path}: ${route.summary}`.slice(0, 256),
      timeout: Duration.seconds(route.timeoutSeconds),
      memorySize: 512,
      environment,
    });
  }

  private acknowledgeFindings(): void {
    const api = Validations.of(this.restApi);
    api.acknowledge({
      id: 'AwsSolutions-APIG2',
      reason:
        'Requests are validated in the functions with the same zod schemas that generate the OpenAPI document, so errors come back in the error envelope with the offending param.',
    });
    api.acknowledge({
      id: 'AwsSolutions-APIG3',
      reason:
        'No WAF web ACL by default: stage throttling caps the API and per-plan rate limits are enforced per organisation in the service. A web ACL can be associated per environment.',
    });
    api.acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Authorisation happens in the functions: the inference surface uses API keys (hashed, checked against DynamoDB), the management surface JWTs verified against the issuer JWKS, internal callbacks HMAC signatures; /v1/openapi.json and /docs are public by design.',
    });
    api.acknowledge({
      id: 'AwsSolutions-COG4',
      reason: 'No Cognito user pool: the inference surface uses API keys verified in the Lambda, the management surface JWTs verified against the issuer JWKS.',
    });
    Validations.of(this.restApi.node.findChild('CloudWatchRole')).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason: "API Gateway's account-level role for execution and access logging; AWS's managed policy is the documented one.",
    });
  }
}
