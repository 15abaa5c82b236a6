import { Aws } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

/** Requests one IP address may send the stage in five minutes (WAF's window) before it is blocked: 20 a second sustained. */
export const DEFAULT_FIREWALL_RATE_LIMIT = 6000;

/** The header CloudFront adds to every request it forwards to the API (lib/web-site.ts). */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/**
 * The surfaces that must come through CloudFront when origin protection is on: `/v1` and `/mgmt`,
 * with or without the stage in front. `/internal` (the inference plane's callback, which calls the
 * `execute-api` URL), `/docs` and `/.well-known` stay reachable directly.
 */
export const PROTECTED_PATHS = '^/(prod/)?(v1|mgmt)(/|$)';

export interface FirewallProps {
  restApi: RestApi;
  /** requests per five minutes from one IP address; default DEFAULT_FIREWALL_RATE_LIMIT */
  rateLimit: number;
  /** with origin protection: the secret value CloudFront sends in ORIGIN_VERIFY_HEADER */
  originSecret?: string;
}

/** The managed rule groups, by priority, each with the rules our traffic needs counted instead of blocked. */
const MANAGED_GROUPS = [
  // addresses Amazon's threat intelligence has seen sending bots, scans and attacks
  { name: 'AWSManagedRulesAmazonIpReputationList', counted: [] },
  // request patterns of known exploits (Log4j, Java deserialisation, localhost Host headers…)
  { name: 'AWSManagedRulesKnownBadInputsRuleSet', counted: [] },
  // OWASP-style common attacks. SizeRestrictions_BODY blocks any body over 8 KB: multipart inference
  // calls, the inference plane's callbacks and payment events are larger, and every route already
  // caps its own body (docs/internals/uploads.md, "Oversized bodies"), so that one rule only counts
  { name: 'AWSManagedRulesCommonRuleSet', counted: ['SizeRestrictions_BODY'] },
] as const;

function visibility(metricName: string): CfnWebACL.VisibilityConfigProperty {
  return { cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: true };
}

/**
 * The regional web ACL on the API's stage (AWS WAFv2): a per-IP rate rule for traffic that reaches
 * the stage directly (through CloudFront every request comes from an edge address, so the viewer's
 * rule belongs on CloudFront's own ACL, docs/internals/deploy.md "Firewall"), Amazon's IP reputation list,
 * known bad inputs and the common rule set, and, with origin protection, a rule that blocks `/v1`
 * and `/mgmt` requests without CloudFront's secret header.
 */
export class Firewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: FirewallProps) {
    super(scope, id);
    const rules: CfnWebACL.RuleProperty[] = [];
    if (props.originSecret) {
      rules.push({
        name: 'RequireCloudFront',
        priority: rules.length,
        action: { block: {} },
        visibilityConfig: visibility('RequireCloudFront'),
        statement: {
          andStatement: {
            statements: [
              {
                regexMatchStatement: {
                  fieldToMatch: { uriPath: {} },
                  regexString: PROTECTED_PATHS,
                  textTransformations: [{ priority: 0, type: 'NONE' }],
                },
              },
              {
                notStatement: {
                  statement: {
                    byteMatchStatement: {
                      fieldToMatch: { singleHeader: { Name: ORIGIN_VERIFY_HEADER } },
                      positionalConstraint: 'EXACTLY',
                      searchString: props.originSecret,
                      textTransformations: [{ priority: 0, type: 'NONE' }],
                    },
                  },
                },
              },
            ],
          },
        },
      });
    }
    rules.push({
      name: 'RateLimitPerIp',
      priority: rules.length,
      action: { block: {} },
      visibilityConfig: visibility('RateLimitPerIp'),
      statement: {
        rateBasedStatement: { limit: props.rateLimit, aggregateKeyType: 'IP', evaluationWindowSec: 300 },
      },
    });
    for (const group of MANAGED_GROUPS) {
      rules.push({
        name: group.name,
        priority: rules.length,
        overrideAction: { none: {} },
        visibilityConfig: visibility(group.name),
        statement: {
          managedRuleGroupStatement: {
            vendorName: 'AWS',
            name: group.name,
            ...(group.counted.length
              ? { ruleActionOverrides: group.counted.map((name) => ({ name, actionToUse: { count: {} } })) }
              : {}),
          },
        },
      });
    }

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      description: 'Automotive Inference API stage: rate per IP, IP reputation, known bad inputs, common attacks',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('ApiStage'),
      rules,
    });
    const stage = props.restApi.deploymentStage;
    const association = new CfnWebACLAssociation(this, 'StageAssociation', {
      resourceArn: `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}::/restapis/${props.restApi.restApiId}/stages/${stage.stageName}`,
      webAclArn: this.webAcl.attrArn,
    });
    association.node.addDependency(stage);
  }
}
