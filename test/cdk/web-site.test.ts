import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_CONTENT_SECURITY_POLICY } from '../../lambdas/http/security-headers.js';
import { type CfnResource, flatten, synthStack } from './template.js';

let site: Record<string, CfnResource>;

beforeAll(() => {
  const { stack } = synthStack();
  site = Template.fromStack(stack.webSite.distribution.stack).toJSON().Resources as Record<string, CfnResource>;
});

const ofType = (resources: Record<string, CfnResource>, type: string) =>
  Object.values(resources).filter((r) => r.Type === type);

describe('the web site (API, /docs and /dashboard on one CloudFront origin)', () => {
  it('routes the API by default (uncached, all methods) and the documentation and dashboard paths to the bucket', () => {
    const [distribution] = ofType(site, 'AWS::CloudFront::Distribution');
    const config = distribution!.Properties!.DistributionConfig;
    expect(config.DefaultCacheBehavior.AllowedMethods).toEqual(expect.arrayContaining(['GET', 'POST', 'DELETE']));
    expect(config.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('https-only');
    const paths = config.CacheBehaviors.map((behavior: { PathPattern: string }) => behavior.PathPattern).sort();
    expect(paths).toEqual(
      ['/dashboard*', '/docs', '/docs/', '/docs/assets/*', '/docs/guides/*', '/docs/reference*'].sort(),
    );
    const apiOrigin = config.Origins.find((origin: { CustomOriginConfig?: unknown }) => origin.CustomOriginConfig);
    expect(flatten(apiOrigin.DomainName)).toContain('execute-api');
    const bucketOrigin = config.Origins.find((origin: { S3OriginConfig?: unknown }) => origin.S3OriginConfig);
    expect(bucketOrigin.OriginAccessControlId).toBeDefined();
  });

  it('keeps the bucket private and encrypted, and deploys both the docs and the dashboard into it', () => {
    const [bucket] = ofType(site, 'AWS::S3::Bucket');
    expect(bucket!.Properties!.PublicAccessBlockConfiguration).toMatchObject({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket!.Properties!.BucketEncryption).toBeDefined();
    const deployments = ofType(site, 'Custom::CDKBucketDeployment')
      .map((d) => d.Properties!.DestinationBucketKeyPrefix)
      .sort();
    expect(deployments).toEqual(['dashboard/', 'docs/']);
  });

  it('rewrites pretty URLs and falls back to the SPA for dashboard deep links', () => {
    const [fn] = ofType(site, 'AWS::CloudFront::Function');
    expect(fn!.Properties!.FunctionCode).toContain("'/dashboard/index.html'");
    expect(fn!.Properties!.FunctionCode).toContain("'/index.html'");
  });

  it('answers every path with the browser security headers and HSTS: pages only from the origin, never framed; the API keeps the headers its functions set', () => {
    const [distribution] = ofType(site, 'AWS::CloudFront::Distribution');
    const config = distribution!.Properties!.DistributionConfig;
    const policies = Object.fromEntries(
      Object.entries(site)
        .filter(([, resource]) => resource.Type === 'AWS::CloudFront::ResponseHeadersPolicy')
        .map(([id, resource]) => [id, resource.Properties!.ResponseHeadersPolicyConfig.SecurityHeadersConfig]),
    );
    const policyOf = (behavior: { ResponseHeadersPolicyId?: { Ref: string } }) =>
      policies[behavior.ResponseHeadersPolicyId!.Ref]!;
    for (const behavior of [config.DefaultCacheBehavior, ...config.CacheBehaviors]) {
      const headers = policyOf(behavior);
      expect(headers.ContentTypeOptions).toEqual({ Override: true });
      expect(headers.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
      expect(headers.ReferrerPolicy).toEqual({ ReferrerPolicy: 'no-referrer', Override: true });
      expect(headers.StrictTransportSecurity).toEqual({
        AccessControlMaxAgeSec: 63072000,
        IncludeSubdomains: true,
        Override: true,
      });
    }
    const api = policyOf(config.DefaultCacheBehavior).ContentSecurityPolicy;
    expect(api).toEqual({ ContentSecurityPolicy: API_CONTENT_SECURITY_POLICY, Override: false });
    for (const behavior of config.CacheBehaviors) {
      const page = policyOf(behavior).ContentSecurityPolicy;
      expect(page.Override, behavior.PathPattern).toBe(true);
      const policy = flatten(page.ContentSecurityPolicy);
      expect(policy).toContain("default-src 'self'");
      expect(policy).toContain("script-src 'self';");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain("img-src 'self' data: https://*.s3.<AWS::Region>.amazonaws.com");
      expect(policy).not.toMatch(/script-src[^;]*(unsafe|\*|https?:)/);
    }
  });
});
