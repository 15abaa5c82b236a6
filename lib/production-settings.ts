import { DEFAULT_FIREWALL_RATE_LIMIT } from './firewall.js';
import { SettingError } from './wait-ceiling.js';

/**
 * API Gateway's default account-level throttle per region (requests per second, burst): the stage's
 * default, so one stage-wide limit is no longer shared by every customer. The per-plan limits the
 * service enforces per organisation, and the firewall's per-IP rule, come before it.
 */
export const ACCOUNT_THROTTLE = { rateLimit: 10_000, burstLimit: 5_000 } as const;

/** The production posture's deploy-time settings (`-c name=value`, docs/internals/deploy.md). */
export interface ProductionSettings {
  /** the site and API on this name (CloudFront alias), with `certificateArn` */
  domainName?: string;
  /** an ACM certificate in us-east-1 covering `domainName` */
  certificateArn?: string;
  /** a Route 53 hosted zone in this account that holds `domainName`: the stack writes its alias records */
  hostedZoneId?: string;
  /** a WAFv2 web ACL of scope CLOUDFRONT (made in us-east-1) to attach to the distribution */
  cloudFrontWebAclArn?: string;
  /** require CloudFront's secret header on `/v1` and `/mgmt` at the stage; default: on with a custom domain */
  originProtection: boolean;
  /** the regional web ACL on the API stage; default on */
  firewall: boolean;
  /** requests per five minutes per IP address at the stage */
  firewallRateLimit: number;
  /** subscribes this address to the alarm topic */
  alarmEmail?: string;
  /** the stage's throttle (requests per second, burst) */
  stageThrottle: { rateLimit: number; burstLimit: number };
  /** with `signup=cognito`: whether every dashboard user must sign in with an authenticator app */
  mfa: 'required' | 'optional';
  /**
   * with `signup=cognito`: Cognito threat protection on the Plus feature plan (billed per monthly
   * active user): `audit` records risky sign-ins, `enforced` also blocks them or asks for MFA
   */
  threatProtection?: 'audit' | 'enforced';
}

type Context = (name: string) => string | undefined;

function wholeNumber(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new SettingError(`${name}=${value} is not usable: give a whole number from ${min} to ${max}.`);
  return n;
}

function flag(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (value !== 'true' && value !== 'false')
    throw new SettingError(`${name}=${value} is not usable: give true or false.`);
  return value === 'true';
}

function choice<const T extends string>(name: string, value: string | undefined, choices: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value))
    throw new SettingError(`${name}=${value} is not usable: give ${choices.join(' or ')}.`);
  return value as T;
}

/** Reads and checks the settings; a value that cannot work is a SettingError naming it. */
export function productionSettings(context: Context): ProductionSettings {
  const domainName = context('domainName');
  const certificateArn = context('certificateArn');
  if (Boolean(domainName) !== Boolean(certificateArn))
    throw new SettingError(
      'domainName and certificateArn go together: the name, and an ACM certificate for it in us-east-1.',
    );
  if (certificateArn && !/^arn:aws[\w-]*:acm:us-east-1:\d{12}:certificate\/[\w-]+$/.test(certificateArn))
    throw new SettingError(
      `certificateArn=${certificateArn} is not usable: CloudFront takes ACM certificates from us-east-1 only (arn:aws:acm:us-east-1:<account>:certificate/<id>).`,
    );
  const hostedZoneId = context('hostedZoneId');
  if (hostedZoneId && !domainName)
    throw new SettingError('hostedZoneId needs domainName (and certificateArn): the zone holds that name’s records.');
  if (hostedZoneId && !/^Z[A-Z0-9]{1,32}$/.test(hostedZoneId))
    throw new SettingError(`hostedZoneId=${hostedZoneId} is not usable: give a Route 53 hosted zone id (Z…).`);
  const webAcl = context('cloudFrontWebAclArn');
  if (webAcl && !/^arn:aws[\w-]*:wafv2:us-east-1:\d{12}:global\/webacl\/[\w-]+\/[\w-]+$/.test(webAcl))
    throw new SettingError(
      `cloudFrontWebAclArn=${webAcl} is not usable: CloudFront takes a web ACL of scope CLOUDFRONT, made in us-east-1 (arn:aws:wafv2:us-east-1:<account>:global/webacl/<name>/<id>).`,
    );
  const alarmEmail = context('alarmEmail');
  if (alarmEmail && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(alarmEmail))
    throw new SettingError(`alarmEmail=${alarmEmail} is not usable: give one email address.`);
  const firewall = flag('firewall', context('firewall'), true);
  const originProtection = flag('originProtection', context('originProtection'), Boolean(domainName));
  if (originProtection && !firewall)
    throw new SettingError(
      'originProtection=true needs the firewall: the regional web ACL is what checks CloudFront’s header.',
    );
  const threatProtection = choice('threatProtection', context('threatProtection'), ['audit', 'enforced'] as const);
  return {
    ...(domainName ? { domainName } : {}),
    ...(certificateArn ? { certificateArn } : {}),
    ...(hostedZoneId ? { hostedZoneId } : {}),
    ...(webAcl ? { cloudFrontWebAclArn: webAcl } : {}),
    originProtection,
    firewall,
    // WAF's rate-based rules take 10 to 2,000,000,000 requests per window
    firewallRateLimit: wholeNumber(
      'firewallRateLimit',
      context('firewallRateLimit'),
      DEFAULT_FIREWALL_RATE_LIMIT,
      10,
      2_000_000_000,
    ),
    ...(alarmEmail ? { alarmEmail } : {}),
    stageThrottle: {
      rateLimit: wholeNumber('stageRateLimit', context('stageRateLimit'), ACCOUNT_THROTTLE.rateLimit, 1, 1_000_000),
      burstLimit: wholeNumber('stageBurstLimit', context('stageBurstLimit'), ACCOUNT_THROTTLE.burstLimit, 0, 1_000_000),
    },
    mfa: choice('mfa', context('mfa'), ['required', 'optional'] as const) ?? 'optional',
    ...(threatProtection ? { threatProtection } : {}),
  };
}

/** Every setting off: what a stack built without context gets. */
export const DEFAULT_PRODUCTION_SETTINGS: ProductionSettings = productionSettings(() => undefined);
