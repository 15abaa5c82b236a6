import { type App, Duration, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { functionName } from '../../lambdas/http/routes/define.js';
import { ROUTES } from '../../lambdas/http/routes/index.js';
import { Data } from '../../lib/data.js';
import { Queues } from '../../lib/queues.js';
import { Signup } from '../../lib/signup.js';
import { AutomotiveInferenceStack } from '../../lib/stack.js';
import {
  actionsOf,
  assemblyResources,
  type CfnResource,
  flatten,
  ownFunctions,
  statementsOf,
  testApp,
} from './template.js';

/** The sign-up construct on its own, with the data it writes: what `-c signup=cognito` adds. */
describe('sign-up on AWS (-c signup=cognito): the Cognito user pool, its hosted UI, the app client and the triggers', () => {
  let resources: Record<string, CfnResource>;
  let template: Template;
  let app: App;

  beforeAll(() => {
    app = testApp();
    const stack = new Stack(app, 'SignupStack', { env: { account: '123456789012', region: 'eu-west-1' } });
    const data = new Data(stack, 'Data');
    const queues = new Queues(stack, 'Queues', {
      workerTimeout: Duration.seconds(60),
      deliveryTimeout: Duration.seconds(30),
    });
    const signup = new Signup(stack, 'Signup', {
      table: data.table,
      bucket: data.bucket,
      workQueue: queues.workQueue,
      fastWorkQueue: queues.fastWorkQueue,
      webhookQueue: queues.webhookQueue,
      docsUrl: 'https://docs.example',
    });
    signup.addDashboardClient(['https://d111.cloudfront.net/dashboard', 'https://app.example/dashboard']);
    template = Template.fromStack(stack);
    resources = template.toJSON().Resources as Record<string, CfnResource>;
  });

  const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);

  it('one user pool: email sign-in and self sign-up, a strong password policy, kept when the stack goes, both triggers on one function', () => {
    const [[, pool]] = ofType('AWS::Cognito::UserPool') as [[string, CfnResource]];
    expect(pool.Properties).toMatchObject({
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      Policies: {
        PasswordPolicy: {
          MinimumLength: 12,
          RequireLowercase: true,
          RequireUppercase: true,
          RequireNumbers: true,
          RequireSymbols: true,
        },
      },
      DeletionProtection: 'ACTIVE',
      UserPoolTier: 'LITE',
    });
    expect(pool.DeletionPolicy).toBe('Retain');
    const trigger = ownFunctions(resources).get('cognito-triggers')!;
    expect(pool.Properties!.LambdaConfig).toEqual({
      PostConfirmation: { 'Fn::GetAtt': [trigger.logicalId, 'Arn'] },
      PreTokenGeneration: { 'Fn::GetAtt': [trigger.logicalId, 'Arn'] },
    });
    expect(pool.Properties!.Schema).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Name: 'organization_name', AttributeDataType: 'String', Mutable: true }),
      ]),
    );
  });

  it('the hosted UI on a Cognito domain unique to the stack', () => {
    const [[, domain]] = ofType('AWS::Cognito::UserPoolDomain') as [[string, CfnResource]];
    expect(flatten(domain.Properties!.Domain)).toMatch(/^ais-/);
    expect(JSON.stringify(domain.Properties!.Domain)).toContain('AWS::StackId');
  });

  it('the dashboard’s app client: public, authorisation code grant only (no implicit) back to <dashboard>/login, ID tokens of at most 15 minutes', () => {
    const [[, client]] = ofType('AWS::Cognito::UserPoolClient') as [[string, CfnResource]];
    expect(client.Properties).toMatchObject({
      GenerateSecret: false,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: ['openid', 'email'],
      CallbackURLs: ['https://d111.cloudfront.net/dashboard/login', 'https://app.example/dashboard/login'],
      LogoutURLs: ['https://d111.cloudfront.net/dashboard', 'https://app.example/dashboard'],
      SupportedIdentityProviders: ['COGNITO'],
      PreventUserExistenceErrors: 'ENABLED',
    });
    const { IdTokenValidity, TokenValidityUnits } = client.Properties as {
      IdTokenValidity: number;
      TokenValidityUnits: { IdToken: string };
    };
    const seconds =
      IdTokenValidity *
      ({ seconds: 1, minutes: 60, hours: 3600, days: 86_400 } as Record<string, number>)[TokenValidityUnits.IdToken]!;
    expect(seconds).toBeLessThanOrEqual(15 * 60);
    expect(seconds).toBeGreaterThanOrEqual(5 * 60);
  });

  it('the trigger function runs the bundled trigger entry with the service environment, may be invoked by this pool only, and reads and writes the table', () => {
    const trigger = ownFunctions(resources).get('cognito-triggers')!;
    expect(trigger.props.Environment.Variables).toMatchObject({
      TABLE_NAME: expect.anything(),
      BUCKET_NAME: expect.anything(),
    });
    expect(trigger.props.Timeout).toBeLessThanOrEqual(5);
    const permissions = ofType('AWS::Lambda::Permission').map(([, permission]) => permission.Properties!);
    expect(permissions).toHaveLength(2);
    for (const permission of permissions) {
      expect(permission).toMatchObject({
        Principal: 'cognito-idp.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [trigger.logicalId, 'Arn'] },
      });
      expect(flatten(permission.SourceArn)).toMatch(/UserPool.*\.Arn/);
    }
    const actions = actionsOf(statementsOf(resources, trigger.logicalId));
    expect(actions).toEqual(
      expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem']),
    );
    expect(
      actions.some(
        (action) => action.startsWith('s3:') || action.startsWith('sqs:') || action.startsWith('cognito-idp:'),
      ),
    ).toBe(false);
  });

  it('adds few resources: the pool, its domain, its client, one function with its role, policy and log group, two invoke permissions, no SMS role', () => {
    const signupResources = Object.entries(resources)
      .filter(([id]) => id.startsWith('Signup'))
      .map(([, resource]) => resource.Type);
    expect(signupResources.sort()).toEqual(
      [
        'AWS::Cognito::UserPool',
        'AWS::Cognito::UserPoolDomain',
        'AWS::Cognito::UserPoolClient',
        'AWS::Lambda::Function',
        'AWS::IAM::Role',
        'AWS::IAM::Policy',
        'AWS::Logs::LogGroup',
        'AWS::Lambda::Permission',
        'AWS::Lambda::Permission',
      ].sort(),
    );
  });

  it('names its outputs as npm run admin reads them', () => {
    const outputs = template.toJSON().Outputs as Record<string, unknown>;
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['UserPoolId', 'UserPoolClientId', 'SignInDomainUrl']));
  });

  it('passes cdk-nag AwsSolutions: its findings are acknowledged with reasons, or absent', () => {
    const violations = new AwsSolutionsChecks()
      .validateScope(app)
      .violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath}`));
    // the queues and table of this test stack are not the construct's
    expect(violations.filter((violation) => violation.includes('/Signup/'))).toEqual([]);
  });
});

describe('the stack with -c signup=cognito: its own pool issues the dashboard tokens', () => {
  let resources: Record<string, CfnResource>;
  let functions: ReturnType<typeof ownFunctions>;
  let stack: AutomotiveInferenceStack;
  let app: App;

  beforeAll(() => {
    app = testApp();
    stack = new AutomotiveInferenceStack(app, 'SignUpStack', {
      // an issuer named as well is not used (the synth warns)
      management: {
        signup: 'cognito',
        jwtIssuer: 'https://other-issuer.example',
        dashboardUrl: 'https://app.example/dashboard',
      },
    });
    resources = assemblyResources(stack);
    functions = ownFunctions(resources);
  });

  const env = (handler: string) =>
    (functions.get(handler)?.props.Environment?.Variables ?? {}) as Record<string, unknown>;
  const poolId = () => Object.entries(resources).find(([, r]) => r.Type === 'AWS::Cognito::UserPool')![0];
  const clientId = () => Object.entries(resources).find(([, r]) => r.Type === 'AWS::Cognito::UserPoolClient')![0];

  it('every JWT route verifies tokens of the pool (issuer) for the dashboard’s app client (audience)', () => {
    const handlers = new Set(ROUTES.filter((route) => route.auth === 'jwt').map((route) => functionName(route)));
    expect(handlers.size).toBeGreaterThan(10);
    for (const handler of handlers) {
      expect(flatten(env(handler).JWT_ISSUER), handler).toBe(`<${poolId()}.ProviderURL>`);
      expect(flatten(env(handler).JWT_AUDIENCE), handler).toBe(`<${clientId()}>`);
      expect(env(handler), handler).not.toHaveProperty('JWKS_URL');
    }
    expect(
      Annotations.fromStack(stack).findWarning(
        '*',
        Match.stringLikeRegexp('jwtIssuer, jwtAudience and jwksUrl are not used'),
      ),
    ).toHaveLength(1);
  });

  it('invite-member may create and read users of that pool only, with a role of its own; the sign-in route knows the hosted UI', () => {
    for (const handler of ['invite-member', 'get-sign-in-options']) {
      expect(env(handler), handler).toMatchObject({
        COGNITO_USER_POOL_ID: { Ref: poolId() },
        COGNITO_CLIENT_ID: { Ref: clientId() },
      });
      expect(flatten(env(handler).COGNITO_DOMAIN_URL), handler).toMatch(
        /^https:\/\/<.*HostedUi.*>\.auth\.<AWS::Region>\.amazoncognito\.com$/,
      );
    }
    const cognitoStatements = (handler: string) =>
      statementsOf(resources, functions.get(handler)!.logicalId).filter((s) =>
        actionsOf([s]).some((a) => a.startsWith('cognito-idp:')),
      );
    const invite = cognitoStatements('invite-member');
    expect(actionsOf(invite).sort()).toEqual(['cognito-idp:AdminCreateUser', 'cognito-idp:AdminGetUser']);
    expect(invite.map((s) => flatten(s.Resource))).toEqual([`<${poolId()}.Arn>`]);
    for (const handler of [
      'get-sign-in-options',
      'update-member',
      'delete-member',
      'create-api-key',
      'cognito-triggers',
    ])
      expect(cognitoStatements(handler), handler).toEqual([]);
    const roleOf = (handler: string) => JSON.stringify(functions.get(handler)!.props.Role);
    expect(roleOf('invite-member')).not.toBe(roleOf('update-member'));
  });

  it('the app client sends people back to the dashboard on the distribution and on the dashboardUrl, with no dependency cycle', () => {
    const client = resources[clientId()]!;
    const callbacks = (client.Properties!.CallbackURLs as unknown[]).map(flatten);
    expect(callbacks).toEqual([
      expect.stringMatching(/^https:\/\/<.*Distribution.*DomainName>\/dashboard\/login$/),
      'https://app.example/dashboard/login',
    ]);
    // synthesising the whole assembly proves CloudFormation can order it
    expect(() => app.synth()).not.toThrow();
  });

  it('lets the dashboard’s pages call the hosted UI’s token endpoint (connect-src), and nothing else of Cognito', () => {
    const policies = Object.values(resources)
      .filter((r) => r.Type === 'AWS::CloudFront::ResponseHeadersPolicy')
      .map((r) =>
        flatten(
          r.Properties!.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy,
        ),
      );
    const pages = policies.find((p) => p.includes('script-src'))!;
    expect(pages).toMatch(
      /connect-src 'self' https:\/\/<[^>]*HostedUi[^>]*>\.auth\.<AWS::Region>\.amazoncognito\.com https:\/\/\*\.s3\.<AWS::Region>\.amazonaws\.com;/,
    );
  });

  it('outputs what npm run admin reads', () => {
    const outputs = Template.fromStack(stack).toJSON().Outputs as Record<string, unknown>;
    for (const key of ['TableName', 'BucketName', 'UserPoolId', 'UserPoolClientId', 'SignInDomainUrl'])
      expect(outputs, key).toHaveProperty(key);
  });
});
