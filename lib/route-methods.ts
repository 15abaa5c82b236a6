import { type Duration, NestedStack, Validations } from 'aws-cdk-lib';
import { AwsIntegration, type IResource, RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { functionName, type RouteDefinition } from '../lambdas/http/routes/define.js';

/** Where a route's method lives: the top-level path segments served from nested stacks of their own, by stack id. */
export const ROUTE_SURFACES = { v1: 'InferenceRoutes', mgmt: 'ManagementRoutes' } as const;

/** The nested stack holding a route's method, or undefined for the main template (`/docs`, `/internal`, …). */
export function surfaceOf(route: RouteDefinition): (typeof ROUTE_SURFACES)[keyof typeof ROUTE_SURFACES] | undefined {
  const top = route.path.split('/')[1] as keyof typeof ROUTE_SURFACES;
  return Object.hasOwn(ROUTE_SURFACES, top) ? ROUTE_SURFACES[top] : undefined;
}

export interface RouteMethodsProps {
  routes: readonly RouteDefinition[];
  /** the function serving a handler */
  functionFor: (handler: string) => IFunction;
  /** a route's integration timeout, where it is not API Gateway's default */
  timeoutOf: (route: RouteDefinition) => Duration | undefined;
}

/**
 * One method per route under `root`, each integrated with its handler's function (Lambda proxy).
 * Resources are created (or reused) one per path segment: `v1`, `plate.read`, `jobs`, `{id}`…
 */
export function addRouteMethods(root: IResource, props: RouteMethodsProps): void {
  for (const route of props.routes) {
    root
      .resourceForPath(route.path)
      .addMethod(route.method, lambdaProxy(props.functionFor(functionName(route)), props.timeoutOf(route)), {
        operationName: route.id,
      });
  }
}

/** What a route's method is made of: a change to any of it must redeploy the stage. */
export function methodFingerprint(route: RouteDefinition, timeout: Duration | undefined): string {
  return `${route.method} ${route.path} ${route.id} ${functionName(route)} ${timeout?.toSeconds() ?? 'default'}`;
}

/**
 * The methods of one surface of the REST API (`/v1`, `/mgmt`) in a nested stack of their own:
 * a route costs its method and path segments, and the main template stays well under
 * CloudFormation's 500 resources however many routes come (test/cdk/resource-budget.test.ts). The
 * API itself, its stage and deployment stay in the main template; the deployment depends on this
 * stack and is renamed whenever one of its methods changes (lib/api.ts), so the stage serves them.
 */
export class RouteMethodsStack extends NestedStack {
  constructor(scope: Construct, id: string, props: RouteMethodsProps & { restApi: RestApi }) {
    super(scope, id, { description: `Automotive Inference: the REST API's ${id} methods` });
    const api = RestApi.fromRestApiAttributes(this, 'RestApi', {
      restApiId: props.restApi.restApiId,
      rootResourceId: props.restApi.restApiRootResourceId,
    });
    addRouteMethods(api.root, props);
    acknowledgeMethodFindings(this);
  }
}

/** cdk-nag's findings on methods, with why they stand: for the main template's methods and each surface's. */
export function acknowledgeMethodFindings(scope: Construct): void {
  Validations.of(scope).acknowledge(
    {
      id: 'AwsSolutions-APIG4',
      reason:
        'Authorisation happens in the functions: the inference surface uses API keys (hashed, checked against DynamoDB), the management surface JWTs verified against the issuer JWKS, internal callbacks HMAC signatures; /v1/openapi.json and /docs are public by design.',
    },
    {
      id: 'AwsSolutions-COG4',
      reason:
        'No Cognito authorizer: the inference surface uses API keys verified in the Lambda, the management surface JWTs verified against the issuer JWKS (the stack’s own user pool with -c signup=cognito).',
    },
  );
}

/**
 * What `LambdaIntegration` builds, without its permission per method: each route function carries
 * one permission for the whole stage (lib/route-functions.ts), so a route sharing a function costs
 * no permission, and the shared function's resource policy stays small however many routes it serves.
 */
function lambdaProxy(fn: IFunction, timeout: Duration | undefined): AwsIntegration {
  return new AwsIntegration({
    proxy: true,
    service: 'lambda',
    path: `2015-03-31/functions/${fn.functionArn}/invocations`,
    options: timeout ? { timeout } : {},
  });
}
