import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../lambdas/http/routes/index.js';
import { AutomotiveInferenceStack } from '../../lib/stack.js';
import { SettingError, waitCeiling } from '../../lib/wait-ceiling.js';
import { assemblyResources, flatten, ownFunctions, resourcePath, testApp } from './template.js';

/** What API Gateway and the functions get for `wait=true`, with and without `-c integrationTimeoutSeconds`. */
function synth(integrationTimeoutSeconds?: number) {
  const stack = new AutomotiveInferenceStack(
    testApp(),
    'WaitStack',
    integrationTimeoutSeconds === undefined ? {} : { integrationTimeoutSeconds },
  );
  const resources = assemblyResources(stack);
  const methods = Object.values(resources)
    .filter((r) => r.Type === 'AWS::ApiGateway::Method')
    .map((m) => ({
      key: `${m.Properties!.HttpMethod} ${resourcePath(resources, m.Properties!.ResourceId)}`,
      timeout: m.Properties!.Integration.TimeoutInMillis as number | undefined,
      functionId: /<([A-Za-z0-9]+)\.Arn>/.exec(flatten(m.Properties!.Integration.Uri))?.[1],
    }));
  const distribution = Object.values(resources).find((r) => r.Type === 'AWS::CloudFront::Distribution')!;
  const origins = distribution.Properties!.DistributionConfig.Origins as {
    Id: string;
    OriginPath?: string;
    CustomOriginConfig?: { OriginReadTimeout?: number };
  }[];
  const apiOrigin = origins.find((origin) => origin.CustomOriginConfig && origin.OriginPath)!;
  return {
    functions: ownFunctions(resources),
    methods,
    apiReadTimeout: apiOrigin.CustomOriginConfig!.OriginReadTimeout,
  };
}

const inferencePaths = new Set(ROUTES.filter((r) => r.slug).map((r) => `${r.method} ${r.path}`));
let standard: ReturnType<typeof synth>;
let raised: ReturnType<typeof synth>;

beforeAll(() => {
  standard = synth();
  raised = synth(45);
});

describe('the wait=true ceiling on AWS', () => {
  it("without the setting: API Gateway's 29 s on the inference routes, a 28 s function and a 27 s ceiling in its environment", () => {
    const createJob = standard.functions.get('create-job')!.props;
    expect(createJob.Timeout).toBe(28);
    expect(createJob.Environment.Variables.WAIT_CEILING_SECONDS).toBe('27');
    const inference = standard.methods.filter((m) => inferencePaths.has(m.key));
    expect(inference).toHaveLength(inferencePaths.size);
    for (const method of inference) expect(method.timeout, method.key).toBe(29_000);
  });

  it('with integrationTimeoutSeconds=45: that integration timeout on every inference route, a 44 s function and a 30 s ceiling', () => {
    const createJob = raised.functions.get('create-job')!.props;
    expect(createJob.Timeout).toBe(44);
    expect(createJob.Environment.Variables.WAIT_CEILING_SECONDS).toBe('30');
    for (const method of raised.methods.filter((m) => inferencePaths.has(m.key)))
      expect(method.timeout, method.key).toBe(45_000);
  });

  it('leaves every other route at the default integration timeout and every other function without a ceiling', () => {
    for (const { methods, functions } of [standard, raised]) {
      for (const method of methods.filter((m) => !inferencePaths.has(m.key)))
        expect(method.timeout, method.key).toBeUndefined();
      for (const [name, fn] of functions)
        if (name !== 'create-job')
          expect(fn.props.Environment.Variables, name).not.toHaveProperty('WAIT_CEILING_SECONDS');
    }
  });

  it('times every function behind a route out before its integration (29 s unless the inference setting raises it)', () => {
    for (const { methods, functions } of [standard, raised]) {
      const timeoutOf = new Map([...functions.values()].map((fn) => [fn.logicalId, fn.props.Timeout as number]));
      const served = methods.filter((m) => m.functionId && timeoutOf.has(m.functionId));
      expect(served.length).toBeGreaterThan(50);
      for (const method of served)
        expect(timeoutOf.get(method.functionId!)! * 1000, method.key).toBeLessThan(method.timeout ?? 29_000);
    }
  });

  it("sets CloudFront's read timeout of the API origin to the integration's, up to CloudFront's 60 s", () => {
    expect(standard.apiReadTimeout).toBe(29);
    expect(raised.apiReadTimeout).toBe(45);
    const long = new AutomotiveInferenceStack(testApp(), 'LongWait', { integrationTimeoutSeconds: 120 });
    const distribution = Object.values(assemblyResources(long)).find(
      (r) => r.Type === 'AWS::CloudFront::Distribution',
    )!;
    const origins = distribution.Properties!.DistributionConfig.Origins as {
      OriginPath?: string;
      CustomOriginConfig?: { OriginReadTimeout?: number };
    }[];
    expect(origins.find((o) => o.CustomOriginConfig && o.OriginPath)!.CustomOriginConfig!.OriginReadTimeout).toBe(60);
  });

  it('refuses an integration timeout of 31 s or less, a fraction, or more than a function can run', () => {
    for (const seconds of [31, 30, 29, 0, 32.5, 902, Number.NaN])
      expect(() => waitCeiling(seconds), String(seconds)).toThrow(SettingError);
    expect(() => waitCeiling(30)).toThrow(
      /integrationTimeoutSeconds=30 is not usable: give a whole number of seconds from 32 to 901/,
    );
    expect(waitCeiling(32)).toEqual({ integrationTimeoutSeconds: 32, ceilingSeconds: 30 });
    expect(() => new AutomotiveInferenceStack(testApp(), 'TooShort', { integrationTimeoutSeconds: 30 })).toThrow(
      SettingError,
    );
  });
});
