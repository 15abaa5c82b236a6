import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ArnFormat, Duration, NestedStack } from 'aws-cdk-lib';
import { type IRole, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { CATALOGUE } from '../lambdas/domain/catalogue/catalogue.js';
import { PLANE_ENDPOINTS_VARIABLE } from '../lambdas/domain/catalogue/plane-declaration.js';
import { type DataAccess, functionName, type RouteDefinition } from '../lambdas/http/routes/define.js';
import { type DataResources, grantDataAccess } from './access.js';
import { executionRole, PROJECT_ROOT, type ServiceFunction, serviceEnvironment, serviceFunction } from './functions.js';
import {
  grantRouteIdentity,
  grantRouteSecrets,
  importRuntimeSecrets,
  type ManagementSettings,
  managementEnvironment,
  type UserPoolSettings,
} from './management-settings.js';
import { DATA_PARAMETERS, dataParameterValues, importedDataResources, stackParameters } from './nested-data.js';
import { planeEndpointsValue } from './plane-declaration.js';
import { DEFAULT_INTEGRATION_TIMEOUT_SECONDS, routeFunctionTimeoutSeconds, type WaitCeiling } from './wait-ceiling.js';

export interface RouteFunctionsProps {
  /** the deployed routes; the routes of one route module are served by one function */
  routes: readonly RouteDefinition[];
  /** the main stack's table, bucket and queues (passed in as parameters, imported here) */
  resources: DataResources;
  docsUrl: string;
  /** the REST API whose stage may invoke the functions */
  restApiId: string;
  stageName: string;
  management: ManagementSettings;
  wait: WaitCeiling;
  /** the stack's Cognito user pool (`signup: 'cognito'`): invitations may create users in it */
  userPool?: UserPoolSettings;
}

/** Inference routes (`POST /v1/{endpoint}`): their integration timeout and function follow the wait ceiling. */
export function isInferenceRoute(route: RouteDefinition): boolean {
  return route.slug !== undefined;
}

function acceptsWait(route: RouteDefinition): boolean {
  return route.slug !== undefined && CATALOGUE[route.slug].acceptsWait;
}

/** The secrets a route's settings read, and the user pool it may invite into: the grants its role carries beyond its data access. */
function secretGrants(route: RouteDefinition, userPool: UserPoolSettings | undefined): string[] {
  return [
    ...(route.settings?.includes('payments') ? ['PaymentSecret'] : []),
    ...(route.settings?.includes('inference_callback_secret') ? ['CallbackSecret'] : []),
    ...(route.settings?.includes('invitations') && userPool ? ['UserPoolInvite'] : []),
  ];
}

/**
 * A role's name from what it grants (`TableRead`, `TableReadWrite-Enqueue-PutInputs-GetOutputsUploads-List`):
 * functions with the same name share the role, so two functions share one only if they may touch exactly the same.
 */
export function accessProfile(access: DataAccess, secrets: readonly string[]): string {
  const prefixes = (list: readonly string[] | undefined) =>
    [...(list ?? [])]
      .sort()
      .map((p) => p[0]!.toUpperCase() + p.slice(1))
      .join('');
  const table = { none: 'NoTable', read: 'TableRead', count: 'TableCount', readwrite: 'TableReadWrite' }[access.table];
  return [
    table,
    ...(access.enqueue ? ['Enqueue'] : []),
    ...(access.enqueueWebhooks ? ['EnqueueWebhooks'] : []),
    ...(access.writeObjects?.length ? [`Put${prefixes(access.writeObjects)}`] : []),
    ...(access.readObjects?.length ? [`Get${prefixes(access.readObjects)}`] : []),
    ...(access.listObjects ? ['List'] : []),
    ...(access.deleteObjects?.length ? [`Delete${prefixes(access.deleteObjects)}`] : []),
    ...[...secrets].sort(),
  ].join('-');
}

/** The parameters the main stack passes in: the only references from this stack to it. */
const PARAMETERS = [...DATA_PARAMETERS, 'RestApiId', 'DocsUrl'] as const;

/**
 * The REST API's functions in a nested stack of their own, so the main template keeps room for
 * routes (a route costs a method and its path there; a new handler a function, its log group and
 * its invoke permission here). One function per route module: the inference routes share `create-job`,
 * one warm pool instead of one per endpoint. One role per access profile: functions that may touch
 * exactly the same share it, each still logging to its own log group. Each function may be invoked
 * by the API's stage only (one permission per function, not per route).
 */
export class RouteFunctionsStack extends NestedStack {
  /** handler → its function */
  readonly functions = new Map<string, ServiceFunction>();
  /** handler → the role it runs with, and the handlers sharing that role */
  private readonly roleOf = new Map<string, { role: IRole; handlers: string[] }>();

  constructor(scope: Construct, id: string, props: RouteFunctionsProps) {
    const { resources } = props;
    const values = { ...dataParameterValues(resources), RestApiId: props.restApiId, DocsUrl: props.docsUrl };
    super(scope, id, {
      description: 'Automotive Inference: the REST API route functions, their roles and log groups',
      parameters: values,
    });
    const param = stackParameters(this, PARAMETERS);

    const imported = importedDataResources(this, param);
    const secrets = importRuntimeSecrets(this, props.management);
    // the imported table's name would be split out of its ARN; the parameter is plainer
    const environment = {
      ...serviceEnvironment(imported, param.DocsUrl),
      TABLE_NAME: param.TableName,
      // what live keys may call: the catalogue, quotes, calls and batches read it (docs/internals/inference-plane.md)
      [PLANE_ENDPOINTS_VARIABLE]: planeEndpointsValue(props.management),
    };
    const invokedBy = this.formatArn({
      service: 'execute-api',
      resource: param.RestApiId,
      resourceName: `${props.stageName}/*/*`,
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });

    const byHandler = groupBy(props.routes, functionName);
    const profiles = new Map<string, string[]>();
    for (const [handler, routes] of byHandler) {
      const profile = accessProfile(
        sameFor(handler, routes, (r) => r.access),
        secretGrants(routes[0]!, props.userPool),
      );
      sameFor(handler, routes, (r) => [...(r.settings ?? [])].sort());
      profiles.set(profile, [...(profiles.get(profile) ?? []), handler]);
    }
    const roles = new Construct(this, 'Roles');
    for (const [profile, handlers] of profiles) {
      const role = executionRole(roles, profile, `Route functions ${handlers.join(', ')}: ${profile}`);
      for (const handler of handlers) this.roleOf.set(handler, { role, handlers });
    }

    const functions = new Construct(this, 'Functions');
    for (const [handler, routes] of byHandler) {
      const first = routes[0]!;
      const { role, handlers } = this.roleOf.get(handler)!;
      const waits = routes.some(acceptsWait);
      // under the integration timeout of every route it serves: API Gateway's 29 s, or the inference routes' own
      const timeoutSeconds = Math.max(
        ...routes.map((route) =>
          route.timeoutSeconds === 'integration'
            ? routeFunctionTimeoutSeconds(props.wait.integrationTimeoutSeconds, props.wait.integrationTimeoutSeconds)
            : routeFunctionTimeoutSeconds(route.timeoutSeconds, DEFAULT_INTEGRATION_TIMEOUT_SECONDS),
        ),
      );
      const fn = serviceFunction(functions, handler, {
        name: handler,
        entry: routeEntry(first),
        description: describe(routes),
        timeout: Duration.seconds(timeoutSeconds),
        memorySize: 512,
        role,
        environment: {
          ...environment,
          ...managementEnvironment(first, props.management, secrets, props.userPool),
          // the function answers `wait=true` by this ceiling, under the integration timeout
          ...(waits ? { WAIT_CEILING_SECONDS: String(props.wait.ceilingSeconds) } : {}),
        },
      });
      // the role's grants, once for all the functions sharing it
      if (handlers[0] === handler) {
        grantRouteSecrets(fn, first, secrets);
        grantRouteIdentity(fn, first, props.userPool);
        grantDataAccess(fn, imported, first.access);
      }
      fn.addPermission('ApiInvoke', {
        principal: new ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: invokedBy,
      });
      this.functions.set(handler, fn);
    }
  }

  functionFor(handler: string): ServiceFunction {
    const fn = this.functions.get(handler);
    if (!fn) throw new Error(`no route function for handler ${handler}`);
    return fn;
  }

  /** The function of a handler whose role may receive grants of its own (it shares the role with no other function). */
  dedicated(handler: string): ServiceFunction | undefined {
    const entry = this.roleOf.get(handler);
    if (!entry) return undefined;
    if (entry.handlers.length > 1)
      throw new Error(
        `${handler} shares its role with ${entry.handlers.join(', ')}: give it an access profile of its own before granting it more`,
      );
    return this.functionFor(handler);
  }
}

/** A route's Lambda entry: the route module that states it (its `handler` export is the Lambda handler). */
export function routeEntry(route: Pick<RouteDefinition, 'module'>): string {
  return relative(PROJECT_ROOT, fileURLToPath(route.module));
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/** Routes served by one function must declare the same of what the function is given. */
function sameFor<T>(handler: string, routes: readonly RouteDefinition[], pick: (route: RouteDefinition) => T): T {
  const first = pick(routes[0]!);
  for (const route of routes) {
    if (JSON.stringify(pick(route)) !== JSON.stringify(first))
      throw new Error(
        `routes served by ${handler} declare different access or settings (${routes[0]!.id}, ${route.id})`,
      );
  }
  return first;
}

/** Lambda's description holds 256 characters. */
function describe(routes: readonly RouteDefinition[]): string {
  const [first] = routes;
  const text =
    routes.length === 1
      ? `${first!.method} ${first!.path}: ${first!.summary}`
      : `${routes.length} routes: ${routes.map((r) => `${r.method} ${r.path}`).join(', ')}`;
  return text.length <= 256 ? text : `${text.slice(0, 255)}…`;
}
