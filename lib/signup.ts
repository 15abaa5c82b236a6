import { Aws, CfnOutput, Duration, Fn, RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  FeaturePlan,
  Mfa,
  OAuthScope,
  StandardThreatProtectionMode,
  StringAttribute,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
} from 'aws-cdk-lib/aws-cognito';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { type DataResources, grantDataAccess } from './access.js';
import { serviceEnvironment, serviceFunction } from './functions.js';
import type { ProductionSettings } from './production-settings.js';

/** The ID tokens the dashboard signs in with live this long: the management surface refuses longer ones. */
export const ID_TOKEN_VALIDITY = Duration.minutes(15);

/**
 * Cognito waits at most 5 s for a trigger and then fails the sign-in or sign-up: the function gives
 * up a second earlier, so its own timeout (logged, with the request id) is what an operator sees.
 */
export const TRIGGER_TIMEOUT = Duration.seconds(4);

export interface SignupProps extends DataResources, Partial<Pick<ProductionSettings, 'mfa' | 'threatProtection'>> {
  docsUrl: string;
  /** the hosted UI's domain prefix (unique in the region); default `ais-<the stack id's UUID>` */
  domainPrefix?: string;
}

/**
 * Sign-up and sign-in on AWS (`-c signup=cognito`): a Cognito user pool with its hosted UI, and one
 * function for both triggers: post-confirmation creates the organisation and its owner,
 * pre-token-generation puts `org_id` and `role` from the membership into every ID token. The
 * dashboard's app client is added once the dashboard's address is known (`addDashboardClient`).
 */
export class Signup extends Construct {
  readonly userPool: UserPool;
  readonly domain: UserPoolDomain;
  readonly triggers: NodejsFunction;
  private dashboardClient: UserPoolClient | undefined;

  constructor(scope: Construct, id: string, props: SignupProps) {
    super(scope, id);
    this.triggers = serviceFunction(this, 'Triggers', {
      name: 'cognito-triggers',
      entry: 'lambdas/workers/cognito-triggers.ts',
      description:
        'Cognito: a confirmed sign-up creates its organisation; every ID token gets org_id and role from the membership',
      timeout: TRIGGER_TIMEOUT,
      environment: serviceEnvironment(props, props.docsUrl),
    });
    // the sign-up transaction writes; a sign-in marks an invitation accepted
    grantDataAccess(this.triggers, props, { table: 'readwrite' });

    this.userPool = new UserPool(this, 'UserPool', {
      selfSignUpEnabled: true,
      signInAliases: { email: true },
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      // what a sign-up form may name its organisation with (the hosted UI collects only the email)
      customAttributes: { organization_name: new StringAttribute({ minLen: 1, maxLen: 100, mutable: true }) },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
      },
      // `-c mfa=required`: everyone sets up an authenticator app at their next sign-in (the hosted UI asks)
      mfa: props.mfa === 'required' ? Mfa.REQUIRED : Mfa.OPTIONAL,
      // authenticator apps only: SMS would add a role and a spending limit to manage
      mfaSecondFactor: { sms: false, otp: true },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      // Lite has the hosted UI and the V1 pre-token-generation trigger (ID token claims), which is all
      // sign-in needs; threat protection (`-c threatProtection`) exists on Plus only
      ...(props.threatProtection
        ? {
            featurePlan: FeaturePlan.PLUS,
            standardThreatProtectionMode:
              props.threatProtection === 'enforced'
                ? StandardThreatProtectionMode.FULL_FUNCTION
                : StandardThreatProtectionMode.AUDIT_ONLY,
          }
        : { featurePlan: FeaturePlan.LITE }),
      userInvitation: {
        emailSubject: 'You are invited to the Automotive Inference dashboard',
        emailBody:
          'You were invited to an organisation on the Automotive Inference dashboard. Sign in with {username} and the temporary password {####}.',
      },
      lambdaTriggers: { postConfirmation: this.triggers, preTokenGeneration: this.triggers },
      // the people of every organisation: never dropped with the stack
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
    });
    this.domain = this.userPool.addDomain('HostedUi', {
      cognitoDomain: {
        domainPrefix: props.domainPrefix ?? Fn.join('-', ['ais', Fn.select(2, Fn.split('/', Aws.STACK_ID))]),
      },
    });
    this.acknowledge(props);
  }

  /** Tokens are issued by this pool: the management routes verify against its JWKS. */
  get issuer(): string {
    return this.userPool.userPoolProviderUrl;
  }

  /** The dashboard's app client: ID tokens of it carry `aud` = its id. */
  get client(): UserPoolClient {
    if (!this.dashboardClient) throw new Error('call addDashboardClient first');
    return this.dashboardClient;
  }

  /**
   * The dashboard signs in through the hosted UI with the authorisation code grant and PKCE: a
   * public client (no secret: a static page keeps none), the code comes back in the query of
   * `<dashboard>/login` and the dashboard exchanges it, with its verifier, at the token endpoint.
   * No implicit grant: no token ever travels in a redirect. `dashboardRoots` are the dashboard's
   * roots (`https://<site>/dashboard`).
   */
  addDashboardClient(dashboardRoots: readonly string[]): UserPoolClient {
    this.dashboardClient = this.userPool.addClient('Dashboard', {
      generateSecret: false,
      authFlows: { userSrp: true },
      preventUserExistenceErrors: true,
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL],
        callbackUrls: dashboardRoots.map((root) => `${root}/login`),
        logoutUrls: [...dashboardRoots],
      },
      idTokenValidity: ID_TOKEN_VALIDITY,
      accessTokenValidity: ID_TOKEN_VALIDITY,
      // Cognito's minimum: the code grant returns a refresh token, which the dashboard drops (it keeps the ID token only)
      refreshTokenValidity: Duration.minutes(60),
    });
    new CfnOutput(this, 'UserPoolId', {
      key: 'UserPoolId',
      description: 'Cognito user pool of the dashboard (npm run admin invites owners into it)',
      value: this.userPool.userPoolId,
    });
    new CfnOutput(this, 'UserPoolClientId', {
      key: 'UserPoolClientId',
      description: 'The dashboard’s app client: the audience of its ID tokens',
      value: this.dashboardClient.userPoolClientId,
    });
    new CfnOutput(this, 'SignInDomainUrl', {
      key: 'SignInDomainUrl',
      description: 'Cognito hosted UI (sign-in and sign-up)',
      value: this.domain.baseUrl(),
    });
    return this.dashboardClient;
  }

  /** Each only where its finding exists: MFA required and the Plus plan leave nothing to acknowledge. */
  private acknowledge(props: SignupProps): void {
    if (props.mfa !== 'required')
      Validations.of(this.userPool).acknowledge({
        id: 'AwsSolutions-COG2',
        reason:
          'MFA is optional by the deployer’s choice (-c mfa=required makes it required): users may add an authenticator app; dashboard tokens live at most 15 minutes.',
      });
    if (!props.threatProtection)
      Validations.of(this.userPool).acknowledge({
        id: 'AwsSolutions-COG8',
        reason:
          'The Lite feature plan has everything sign-in uses (hosted UI, ID token claims from the V1 pre-token trigger); -c threatProtection moves the pool to Plus, which costs more per active user.',
      });
  }
}
