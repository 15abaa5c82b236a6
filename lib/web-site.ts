import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { AssetHashType, Aws, Duration, NestedStack, RemovalPolicy, SecretValue, Stack, Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { AaaaRecord, ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, type ISource, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import {
  API_CONTENT_SECURITY_POLICY,
  pageContentSecurityPolicy,
  STRICT_TRANSPORT_SECURITY,
} from '../lambdas/http/security-headers.js';
import { writeDocsSite } from '../site/write.js';
import { STAGE_NAME } from './api.js';
import { ORIGIN_VERIFY_HEADER } from './firewall.js';
import { PROJECT_ROOT } from './functions.js';
import { buildOnSynth } from './local-build.js';
import { assetBucketObjectsArn, wildcardResourceFinding } from './nag.js';

export interface WebSiteProps {
  restApi: RestApi;
  /** CloudFront waits this long for the API (lib/wait-ceiling.ts, apiOriginReadTimeoutSeconds) */
  apiReadTimeoutSeconds: number;
  /** `-c domainName` with `-c certificateArn` (ACM, us-east-1): the distribution answers on that name, TLS 1.2 or later only */
  domain?: { name: string; certificateArn: string; hostedZoneId?: string };
  /** `-c cloudFrontWebAclArn`: a web ACL of scope CLOUDFRONT (made in us-east-1) */
  webAclArn?: string;
  /** with origin protection: the secret CloudFront sends the API in ORIGIN_VERIFY_HEADER (lib/firewall.ts) */
  originSecretArn?: string;
  /** with `-c signup=cognito`: the hosted UI's origin, whose token endpoint the dashboard calls (connect-src) */
  signInOrigin?: string;
}

/**
 * Files the synth builds itself, like the functions' bundles: into CDK's staging directory, hashed
 * by what was built (an unchanged site is not uploaded again), and skipped where bundling is
 * (template tests). A fresh clone needs no build step before `cdk synth` or `cdk deploy`.
 */
function builtOnSynth(sourceDir: string, build: (outputDir: string) => void): ISource {
  return Source.asset(join(PROJECT_ROOT, sourceDir), {
    assetHashType: AssetHashType.OUTPUT,
    bundling: buildOnSynth(sourceDir, build),
  });
}

/** The dashboard's Vite build, with `npm run dashboard:build`'s config; only warnings and errors print (to stderr). */
function buildDashboard(outputDir: string): void {
  const vite = join(PROJECT_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const args = [
    vite,
    'build',
    '--config',
    join(PROJECT_ROOT, 'dashboard', 'vite.config.ts'),
    '--outDir',
    outputDir,
    '--emptyOutDir',
    '--logLevel',
    'warn',
  ];
  execFileSync(process.execPath, args, { cwd: PROJECT_ROOT, stdio: ['ignore', 2, 2] });
}

/** CloudFront's standard logs (the viewer's address of every request) are kept this long. */
export const VIEWER_LOG_DAYS = 90;

/** Pretty URLs on S3: `/docs/guides/x` is `/docs/guides/x/index.html`; every path under /dashboard is the SPA. */
const REWRITE = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var last = uri.split('/').pop();
  if (uri.indexOf('/dashboard') === 0 && last.indexOf('.') < 0) request.uri = '/dashboard/index.html';
  else if (last.indexOf('.') < 0) request.uri = uri.replace(/\\/$/, '') + '/index.html';
  return request;
}`;

/**
 * The API's stage as an origin, from the API's id and the stage's literal name (what
 * `RestApiOrigin` builds from `restApi.url`, which refers to the stage, hence to every method and
 * function): the distribution then exists before any function, so a function may be told about
 * it (the Cognito app client's callback, whose id the management functions verify tokens against).
 */
function apiOrigin(restApi: RestApi, readTimeoutSeconds: number, originSecretArn: string | undefined): HttpOrigin {
  return new HttpOrigin(`${restApi.restApiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`, {
    originPath: `/${STAGE_NAME}`,
    // the integration's timeout, not CloudFront's default 30 s: a `wait=true` near a raised ceiling
    // would otherwise get CloudFront's 504 whatever the integration allows
    readTimeout: Duration.seconds(readTimeoutSeconds),
    protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
    originSslProtocols: [OriginSslPolicy.TLS_V1_2],
    // a dynamic reference, resolved by CloudFormation at deploy: the value is in no template
    ...(originSecretArn
      ? { customHeaders: { [ORIGIN_VERIFY_HEADER]: SecretValue.secretsManager(originSecretArn).unsafeUnwrap() } }
      : {}),
  });
}

/**
 * The browser security headers of lambdas/http/security-headers.ts (the same the local runtime
 * sends), plus HSTS, which only means something over https. `overrideApi: false` keeps what a
 * function already set (its error pages carry the page policy), adding only what is missing.
 */
function securityHeadersPolicy(
  scope: Construct,
  id: string,
  contentSecurityPolicy: string,
  override: boolean,
): ResponseHeadersPolicy {
  return new ResponseHeadersPolicy(scope, id, {
    comment: 'browser security headers (docs/internals/operations.md, "Browser security headers")',
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy, override },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
      referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
      strictTransportSecurity: {
        accessControlMaxAge: Duration.seconds(STRICT_TRANSPORT_SECURITY.maxAgeSeconds),
        includeSubdomains: STRICT_TRANSPORT_SECURITY.includeSubdomains,
        override: true,
      },
    },
  });
}

/**
 * One CloudFront distribution in front of everything: the API (default behaviour, uncached,
 * every viewer header but Host forwarded) and, from a private bucket through origin access
 * control, the documentation site and the dashboard, so the dashboard calls /mgmt/v1 on its own
 * origin (no CORS). The error pages stay with the API route (`/docs/errors/*`).
 */
export class WebSite extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** CloudFront's standard logs (`cloudfront/`): one line per request with the viewer's address (`c-ip`) */
  readonly logs: Bucket;

  constructor(scope: Construct, id: string, props: WebSiteProps) {
    super(scope, id);
    this.logs = new Bucket(this, 'Logs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront's standard logs are written with the log-delivery ACL
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ id: 'expire-viewer-logs', expiration: Duration.days(VIEWER_LOG_DAYS) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const rewrite = new CloudFrontFunction(this, 'Rewrite', {
      code: FunctionCode.fromInline(REWRITE),
      comment: 'pretty URLs for the docs, SPA fallback for the dashboard',
    });
    // signed object URLs point at the region's S3 hosts (virtual-hosted style): the dashboard shows those images
    const objectOrigins = [`https://*.s3.${Stack.of(this).region}.amazonaws.com`];
    const site = {
      origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      functionAssociations: [{ function: rewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
      responseHeadersPolicy: securityHeadersPolicy(
        this,
        'PageHeaders',
        pageContentSecurityPolicy(objectOrigins, props.signInOrigin ? [props.signInOrigin] : []),
        true,
      ),
    };
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Automotive Inference: API, documentation and dashboard on one origin',
      ...(props.domain
        ? {
            domainNames: [props.domain.name],
            certificate: Certificate.fromCertificateArn(this, 'Certificate', props.domain.certificateArn),
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      enableLogging: true,
      logBucket: this.logs,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: {
        origin: apiOrigin(props.restApi, props.apiReadTimeoutSeconds, props.originSecretArn),
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        responseHeadersPolicy: securityHeadersPolicy(this, 'ApiHeaders', API_CONTENT_SECURITY_POLICY, false),
      },
      additionalBehaviors: {
        '/dashboard*': site,
        '/docs': site,
        '/docs/': site,
        '/docs/guides/*': site,
        '/docs/reference*': site,
        '/docs/assets/*': site,
      },
    });
    // with the name's hosted zone, the name points at the distribution (IPv4 and IPv6) without a step by hand
    if (props.domain?.hostedZoneId) {
      const zone = HostedZone.fromHostedZoneId(this, 'Zone', props.domain.hostedZoneId);
      const target = RecordTarget.fromAlias(new CloudFrontTarget(this.distribution));
      const recordName = `${props.domain.name}.`;
      new ARecord(this, 'DomainAlias', { zone, recordName, target });
      new AaaaRecord(this, 'DomainAliasIpv6', { zone, recordName, target });
    }

    new BucketDeployment(this, 'Docs', {
      // generated from the same code `npm start` serves it with; the reference calls the API on the page's own origin
      sources: [builtOnSynth('docs', (outputDir) => writeDocsSite(outputDir, '/'))],
      destinationBucket: this.bucket,
      destinationKeyPrefix: 'docs/',
      distribution: this.distribution,
      distributionPaths: ['/docs*'],
    });
    new BucketDeployment(this, 'Dashboard', {
      sources: [builtOnSynth('dashboard', buildDashboard)],
      destinationBucket: this.bucket,
      destinationKeyPrefix: 'dashboard/',
      distribution: this.distribution,
      distributionPaths: ['/dashboard*'],
    });
    this.acknowledge(props);
  }

  /** What cdk-nag reports about a static site and CDK's own deployment helper, each with why it stands. */
  private acknowledge(props: WebSiteProps): void {
    Validations.of(this.logs).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'This bucket holds CloudFront’s standard logs; logging access to the log bucket itself would only log the log delivery.',
    });
    const site = 'A static documentation site and dashboard: public, read-only, no personal data';
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: `${site}; CloudFront is the only reader (origin access control), and the API logs every request itself.`,
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'The API is sold worldwide: no geo restriction. Add one per deployment if a market requires it.',
    });
    if (!props.webAclArn)
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR2',
        reason:
          'A CloudFront web ACL must live in us-east-1 while this stack’s region is free: it is attached with -c cloudFrontWebAclArn (docs/internals/deploy.md, "Firewall"); the API stage has its own regional web ACL.',
      });
    if (!props.domain)
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'Without -c domainName and -c certificateArn the distribution answers on *.cloudfront.net with CloudFront’s default certificate, whose security policy CloudFront fixes (TLSv1); with them, TLSv1.2_2021.',
      });
    // BucketDeployment's helper function is CDK's, created once per stack at its root
    const helper = Stack.of(this).node.tryFindChild('Custom::CDKBucketDeployment8693BB64968944B69AAFB0CC9EB8756C');
    if (!helper) return;
    const reason =
      'CDK’s BucketDeployment helper (deploy time only): its role and runtime are CDK’s, scoped to copying the site assets from the CDK asset bucket into the site bucket.';
    Validations.of(helper).acknowledge(
      { id: 'AwsSolutions-L1', reason },
      { id: 'Serverless-LambdaLatestVersion', reason },
      { id: 'Serverless-LambdaDLQ', reason: `${reason} CloudFormation invokes it and sees each failure.` },
      { id: 'Serverless-LambdaTracing', reason },
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason,
      },
      { id: 'AwsSolutions-IAM5[Action::s3:Abort*]', reason },
      { id: 'AwsSolutions-IAM5[Action::s3:DeleteObject*]', reason },
      { id: 'AwsSolutions-IAM5[Action::s3:GetBucket*]', reason },
      { id: 'AwsSolutions-IAM5[Action::s3:GetObject*]', reason },
      { id: 'AwsSolutions-IAM5[Action::s3:List*]', reason },
      { id: 'AwsSolutions-IAM5[Resource::*]', reason },
      {
        id: `AwsSolutions-IAM5[Resource::<${Stack.of(this).resolve((this.bucket.node.defaultChild as unknown as { logicalId: string }).logicalId)}.Arn>/*]`,
        reason,
      },
      { id: wildcardResourceFinding(helper, assetBucketObjectsArn(helper)), reason },
    );
  }
}

/**
 * The web site in a nested stack of its own: CloudFront, its bucket and CDK's deployment helper
 * would otherwise push the main template past CloudFormation's 500-resource limit.
 */
export class WebSiteStack extends NestedStack {
  readonly site: WebSite;

  constructor(scope: Construct, id: string, props: WebSiteProps) {
    super(scope, id, {
      description: 'Automotive Inference: CloudFront in front of the API, the documentation site and the dashboard',
    });
    this.site = new WebSite(this, 'WebSite', props);
  }
}
