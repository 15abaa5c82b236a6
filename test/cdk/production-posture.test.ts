import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_ROUTE_THROTTLE } from '../../lib/api.js';
import { ACCOUNT_CONCURRENCY, QUEUE_CONCURRENCY } from '../../lib/concurrency.js';
import { DEFAULT_FIREWALL_RATE_LIMIT, ORIGIN_VERIFY_HEADER } from '../../lib/firewall.js';
import { ACCOUNT_THROTTLE, productionSettings } from '../../lib/production-settings.js';
import { TRIGGER_TIMEOUT } from '../../lib/signup.js';
import { AutomotiveInferenceStack } from '../../lib/stack.js';
import { SettingError } from '../../lib/wait-ceiling.js';
import {
  assemblyResources,
  type CfnResource,
  EVERY_PRODUCTION_SETTING,
  flatten,
  ownFunctions,
  testApp,
} from './template.js';

/** The stack with every production setting on, and with none (docs/internals/deploy.md, "Production settings"). */
function synth(context: Record<string, string>) {
  const app = testApp();
  const stack = new AutomotiveInferenceStack(app, 'Posture', {
    production: productionSettings((name) => context[name]),
    management: { signup: 'cognito', referencePlane: true },
  });
  const resources = assemblyResources(stack);
  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
  return { stack, resources, ofType, outputs: Template.fromStack(stack).toJSON().Outputs as Record<string, unknown> };
}

let every: ReturnType<typeof synth>;
let none: ReturnType<typeof synth>;

// two whole stacks synthesised in process: seconds alone, minutes on a busy shared runner
beforeAll(() => {
  every = synth(EVERY_PRODUCTION_SETTING);
  none = synth({});
}, 600_000);

const only = (list: [string, CfnResource][]) => {
  expect(list).toHaveLength(1);
  return list[0]![1];
};

describe('the firewall on the API stage', () => {
  it('is on by default: managed groups, the 8 KB body rule counted, a per-IP rate rule, associated with the stage', () => {
    for (const { ofType } of [every, none]) {
      const acl = only(ofType('AWS::WAFv2::WebACL'));
      expect(acl.Properties!.Scope).toBe('REGIONAL');
      const rules = acl.Properties!.Rules as Array<Record<string, any>>;
      const managed = rules.filter((r) => r.Statement.ManagedRuleGroupStatement);
      expect(managed.map((r) => r.Statement.ManagedRuleGroupStatement.Name)).toEqual([
        'AWSManagedRulesAmazonIpReputationList',
        'AWSManagedRulesKnownBadInputsRuleSet',
        'AWSManagedRulesCommonRuleSet',
      ]);
      const common = managed.at(-1)!.Statement.ManagedRuleGroupStatement;
      expect(common.RuleActionOverrides).toEqual([{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }]);
      const association = only(ofType('AWS::WAFv2::WebACLAssociation'));
      expect(flatten(association.Properties!.ResourceArn)).toMatch(
        /:apigateway:.*::\/restapis\/<Api\w*RestApi\w*>\/stages\//,
      );
    }
    const rate = (ofType: typeof none.ofType) =>
      (only(ofType('AWS::WAFv2::WebACL')).Properties!.Rules as Array<Record<string, any>>).find(
        (r) => r.Name === 'RateLimitPerIp',
      )!.Statement.RateBasedStatement;
    expect(rate(none.ofType)).toEqual({
      Limit: DEFAULT_FIREWALL_RATE_LIMIT,
      AggregateKeyType: 'IP',
      EvaluationWindowSec: 300,
    });
    expect(rate(every.ofType).Limit).toBe(Number(EVERY_PRODUCTION_SETTING.firewallRateLimit));
  });

  it('with origin protection, blocks /v1 and /mgmt without the header CloudFront adds, from one generated secret', () => {
    const rules = only(every.ofType('AWS::WAFv2::WebACL')).Properties!.Rules as Array<Record<string, any>>;
    const [statement] = rules
      .filter((r) => r.Name === 'RequireCloudFront')
      .map((r) => r.Statement.AndStatement.Statements);
    expect(statement[0].RegexMatchStatement.RegexString).toBe('^/(prod/)?(v1|mgmt)(/|$)');
    const required = statement[1].NotStatement.Statement.ByteMatchStatement;
    expect(required.FieldToMatch).toEqual({ SingleHeader: { Name: ORIGIN_VERIFY_HEADER } });
    const [secretId] = every.ofType('AWS::SecretsManager::Secret').find(([id]) => id.includes('OriginVerify'))!;
    expect(flatten(required.SearchString)).toBe(`{{resolve:secretsmanager:<${secretId}>:SecretString:::}}`);
    const origin = (
      only(every.ofType('AWS::CloudFront::Distribution')).Properties!.DistributionConfig.Origins as Array<
        Record<string, any>
      >
    ).find((o) => o.CustomOriginConfig)!;
    expect(origin.OriginCustomHeaders).toEqual([{ HeaderName: ORIGIN_VERIFY_HEADER, HeaderValue: expect.anything() }]);
    expect(flatten(origin.OriginCustomHeaders[0].HeaderValue)).toBe(
      required.SearchString && flatten(required.SearchString),
    );
    // off without a custom domain: testers and the day-one script call the execute-api URL directly
    expect(none.ofType('AWS::SecretsManager::Secret').filter(([id]) => id.includes('OriginVerify'))).toEqual([]);
    expect(
      (only(none.ofType('AWS::WAFv2::WebACL')).Properties!.Rules as Array<{ Name: string }>).map((r) => r.Name),
    ).not.toContain('RequireCloudFront');
  });

  it('leaves the execute-api endpoint on: CloudFront and the inference plane’s callback use it', () => {
    for (const { ofType } of [every, none])
      expect(only(ofType('AWS::ApiGateway::RestApi')).Properties!.DisableExecuteApiEndpoint).toBeUndefined();
  });

  it('can be turned off, and origin protection then refused', { timeout: 300_000 }, () => {
    const off = synth({ firewall: 'false' });
    expect(off.ofType('AWS::WAFv2::WebACL')).toEqual([]);
    expect(() => productionSettings((n) => ({ firewall: 'false', originProtection: 'true' })[n])).toThrow(SettingError);
  });
});

describe('CloudFront', () => {
  it('answers on the custom domain with TLS 1.2 or later only, and on its own name without one', () => {
    const config = only(every.ofType('AWS::CloudFront::Distribution')).Properties!.DistributionConfig;
    expect(config.Aliases).toEqual([EVERY_PRODUCTION_SETTING.domainName]);
    expect(config.ViewerCertificate).toEqual({
      AcmCertificateArn: EVERY_PRODUCTION_SETTING.certificateArn,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    expect(flatten(every.outputs.SiteUrl && (every.outputs.SiteUrl as { Value: unknown }).Value)).toBe(
      `https://${EVERY_PRODUCTION_SETTING.domainName}`,
    );
    const plain = only(none.ofType('AWS::CloudFront::Distribution')).Properties!.DistributionConfig;
    expect(plain.Aliases).toBeUndefined();
    expect(plain.ViewerCertificate).toBeUndefined();
  });

  it('points the name at the distribution from the hosted zone it is given (IPv4 and IPv6), and writes no record without one', () => {
    const records = every.ofType('AWS::Route53::RecordSet').map(([, record]) => record.Properties!);
    expect(records.map((record) => record.Type).sort()).toEqual(['A', 'AAAA']);
    for (const record of records) {
      expect(record).toMatchObject({
        Name: `${EVERY_PRODUCTION_SETTING.domainName}.`,
        HostedZoneId: EVERY_PRODUCTION_SETTING.hostedZoneId,
      });
      expect(JSON.stringify(record.AliasTarget)).toContain('DomainName');
    }
    expect(none.ofType('AWS::Route53::RecordSet')).toEqual([]);
    const bad = (context: Record<string, string>) => () => productionSettings((n) => context[n]);
    expect(bad({ hostedZoneId: 'Z0123456789ABCDEFGHIJ' })).toThrow(/needs domainName/);
    expect(
      bad({
        domainName: 'api.example.com',
        certificateArn: EVERY_PRODUCTION_SETTING.certificateArn!,
        hostedZoneId: 'example.com',
      }),
    ).toThrow(/hosted zone id/);
  });

  it('takes the web ACL made in us-east-1, and refuses one from another region or a certificate without its name', () => {
    const config = only(every.ofType('AWS::CloudFront::Distribution')).Properties!.DistributionConfig;
    expect(config.WebACLId).toBe(EVERY_PRODUCTION_SETTING.cloudFrontWebAclArn);
    expect(only(none.ofType('AWS::CloudFront::Distribution')).Properties!.DistributionConfig.WebACLId).toBeUndefined();
    const bad = (context: Record<string, string>) => () => productionSettings((n) => context[n]);
    expect(bad({ cloudFrontWebAclArn: 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/x/y' })).toThrow(
      /us-east-1/,
    );
    expect(bad({ domainName: 'api.example.com' })).toThrow(/go together/);
    expect(
      bad({ domainName: 'a.example.com', certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/x' }),
    ).toThrow(/us-east-1/);
  });

  it('writes standard logs, which keep the viewer’s address, to a private bucket', () => {
    for (const { ofType } of [every, none]) {
      const logging = only(ofType('AWS::CloudFront::Distribution')).Properties!.DistributionConfig.Logging;
      expect(logging.Prefix).toBe('cloudfront/');
      expect(flatten(logging.Bucket)).toMatch(/Logs/);
    }
  });
});

describe('alarms that reach someone', () => {
  it('every alarm notifies the topic, in alarm and back to OK; its ARN is an output; -c alarmEmail subscribes', () => {
    for (const { ofType, outputs } of [every, none]) {
      const [topicId] = only(ofType('AWS::SNS::Topic')) && ofType('AWS::SNS::Topic')[0]!;
      const alarms = ofType('AWS::CloudWatch::Alarm');
      expect(alarms.length).toBeGreaterThanOrEqual(13);
      for (const [id, alarm] of alarms) {
        expect(alarm.Properties!.AlarmActions.map(flatten), id).toEqual([`<${topicId}>`]);
        expect(alarm.Properties!.OKActions.map(flatten), id).toEqual([`<${topicId}>`]);
      }
      expect(outputs.AlarmTopicArn).toBeDefined();
    }
    expect(only(every.ofType('AWS::SNS::Subscription')).Properties).toMatchObject({
      Protocol: 'email',
      Endpoint: EVERY_PRODUCTION_SETTING.alarmEmail,
    });
    expect(none.ofType('AWS::SNS::Subscription')).toEqual([]);
  });

  it('alarms on the scheduled workers’ errors and on every dead-letter queue, the schedules’ and the Pipes’ included', () => {
    const names = none.ofType('AWS::CloudWatch::Alarm').map(([id]) => id);
    for (const name of [
      'SweeperErrors',
      'RetentionErrors',
      'ScheduleDeadLetters',
      'StreamDeadLetters',
      'BatchEventsDeadLetters',
    ])
      expect(
        names.some((id) => id.includes(name)),
        name,
      ).toBe(true);
  });

  it('parks what the schedules and the Pipes could not deliver on dead-letter queues', () => {
    const queueId = (fragment: string) => none.ofType('AWS::SQS::Queue').find(([id]) => id.includes(fragment))![0];
    for (const [id, rule] of none.ofType('AWS::Events::Rule').filter(([, r]) => r.Properties!.ScheduleExpression))
      expect(flatten(rule.Properties!.Targets[0].DeadLetterConfig.Arn), id).toBe(
        `<${queueId('ScheduleDeadLetter')}.Arn>`,
      );
    const scheduled = none
      .ofType('AWS::Lambda::Function')
      .filter(([, fn]) => fn.Properties!.DeadLetterConfig)
      .map(([, fn]) => flatten(fn.Properties!.DeadLetterConfig.TargetArn));
    expect(scheduled).toEqual(expect.arrayContaining([`<${queueId('ScheduleDeadLetter')}.Arn>`]));
    for (const [id, pipe] of none.ofType('AWS::Pipes::Pipe'))
      expect(flatten(pipe.Properties!.SourceParameters.DynamoDBStreamParameters.DeadLetterConfig.Arn), id).toBe(
        `<${queueId('StreamDeadLetter')}.Arn>`,
      );
  });
});

describe('bounded concurrency', () => {
  it('caps every SQS event source, together within the account’s 1,000 with room for the API', () => {
    for (const { ofType } of [every, none]) {
      const mappings = ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) =>
        flatten(m.Properties!.EventSourceArn).match(/Queue|Submissions/),
      );
      expect(mappings.length).toBeGreaterThanOrEqual(3);
      for (const [id, mapping] of mappings)
        expect(mapping.Properties!.ScalingConfig?.MaximumConcurrency, id).toBeGreaterThan(0);
    }
    const total = Object.values(QUEUE_CONCURRENCY).reduce((a, b) => a + b, 0);
    expect(total).toBeLessThanOrEqual(ACCOUNT_CONCURRENCY * 0.4);
  });

  it('throttles the stage at the account’s limit by default, at the settings’ with them, and public routes on their own', () => {
    const settings = (stack: typeof none) =>
      only(stack.ofType('AWS::ApiGateway::Stage')).Properties!.MethodSettings as Array<Record<string, any>>;
    const stageWide = (stack: typeof none) => settings(stack).find((s) => s.ResourcePath === '/*')!;
    expect(stageWide(none)).toMatchObject({
      ThrottlingRateLimit: ACCOUNT_THROTTLE.rateLimit,
      ThrottlingBurstLimit: ACCOUNT_THROTTLE.burstLimit,
    });
    expect(stageWide(every)).toMatchObject({
      ThrottlingRateLimit: Number(EVERY_PRODUCTION_SETTING.stageRateLimit),
      ThrottlingBurstLimit: Number(EVERY_PRODUCTION_SETTING.stageBurstLimit),
    });
    const jwks = settings(none).find((s) => s.ResourcePath === '/~1.well-known~1jwks.json')!;
    expect(jwks).toMatchObject({ HttpMethod: 'GET', ThrottlingRateLimit: PUBLIC_ROUTE_THROTTLE.rateLimit });
    expect(() => productionSettings((n) => ({ stageRateLimit: '0' })[n])).toThrow(/stageRateLimit=0/);
  });
});

describe('safe sign-in (the stack’s own user pool)', () => {
  const pool = (stack: typeof none) => only(stack.ofType('AWS::Cognito::UserPool')).Properties!;

  it('asks for MFA by an authenticator app with -c mfa=required, offers it without', () => {
    expect(pool(every)).toMatchObject({ MfaConfiguration: 'ON', EnabledMfas: ['SOFTWARE_TOKEN_MFA'] });
    expect(pool(none)).toMatchObject({ MfaConfiguration: 'OPTIONAL', EnabledMfas: ['SOFTWARE_TOKEN_MFA'] });
    expect(() => productionSettings((n) => ({ mfa: 'sometimes' })[n])).toThrow(
      /mfa=sometimes is not usable: give required or optional/,
    );
  });

  it('turns on threat protection on the Plus plan with -c threatProtection, and stays on Lite without', () => {
    expect(pool(every)).toMatchObject({ UserPoolTier: 'PLUS', UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' } });
    expect(pool(none).UserPoolTier).toBe('LITE');
    expect(pool(none)).not.toHaveProperty('UserPoolAddOns');
    expect(productionSettings((n) => ({ threatProtection: 'audit' })[n]).threatProtection).toBe('audit');
    expect(() => productionSettings((n) => ({ threatProtection: 'on' })[n])).toThrow(
      /threatProtection=on is not usable: give audit or enforced/,
    );
  });

  it('signs the dashboard in with the authorisation code grant only, as a public client, on every address', () => {
    for (const stack of [every, none]) {
      const client = only(stack.ofType('AWS::Cognito::UserPoolClient')).Properties!;
      expect(client).toMatchObject({ AllowedOAuthFlows: ['code'], GenerateSecret: false });
    }
    const callbacks = (only(every.ofType('AWS::Cognito::UserPoolClient')).Properties!.CallbackURLs as unknown[]).map(
      flatten,
    );
    expect(callbacks).toContain(`https://${EVERY_PRODUCTION_SETTING.domainName}/dashboard/login`);
  });

  it('gives the trigger function less than the 5 s Cognito waits for a trigger', () => {
    for (const { resources } of [every, none])
      expect(ownFunctions(resources).get('cognito-triggers')!.props.Timeout).toBe(TRIGGER_TIMEOUT.toSeconds());
    expect(TRIGGER_TIMEOUT.toSeconds()).toBeLessThan(5);
  });

  it('warns that -c mfa and -c threatProtection change nothing without the stack’s own user pool', () => {
    const stack = new AutomotiveInferenceStack(testApp(), 'NoPool', {
      production: productionSettings((n) => ({ mfa: 'required' })[n]),
    });
    const warnings = stack.node.metadata.filter((entry) => entry.type === 'aws:cdk:warning').map((e) => String(e.data));
    expect(warnings).toEqual([
      expect.stringMatching(/-c mfa and -c threatProtection apply to the stack’s own user pool/),
    ]);
  });
});
