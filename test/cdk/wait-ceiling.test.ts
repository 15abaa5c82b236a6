import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../lambdas/http/routes/index.js';
import { AutomotiveInferenceStack } from '../../lib/stack.js';
import { SettingError, waitCeiling } from '../../lib/wait-ceiling.js';
import { assemblyResources, ownFunctions, resourcePath, testApp } from './template.js';

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
    }));
  return { functions: ownFunctions(resources), methods };
}

const inferencePaths = new Set(ROUTES.filter((r) => r.slug).map((r) => `${r.method} ${r.path}`));
let standard: ReturnType<typeof synth>;
let raised: ReturnType<typeof synth>;

beforeAll(() => {
  standard = synth();
  raised = synth(45);
});

describe('the wait=true ceiling on AWS', () => {
  it("without the setting: API Gateway's 29 s on the inference routes, a 29 s function and a 28 s ceiling in its environment", () => {
    const createJob = standard.functions.get('create-job')!.props;
    expect(createJob.Timeout).toBe(29);
    expect(createJob.Environment.Variables.WAIT_CEILING_SECONDS).toBe('28');
    const inference = standard.methods.filter((m) => inferencePaths.has(m.key));
    expect(inference).toHaveLength(inferencePaths.size);
    for (const method of inference) expect(method.timeout, method.key).toBe(29_000);
  });

  it('with integrationTimeoutSeconds=45: that integration timeout on every inference route, a 45 s function and a 30 s ceiling', () => {
    const createJob = raised.functions.get('create-job')!.props;
    expect(createJob.Timeout).toBe(45);
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

  it('refuses an integration timeout of 30 s or less, a fraction, or more than a function can run', () => {
    for (const seconds of [30, 29, 0, 31.5, 901, Number.NaN])
      expect(() => waitCeiling(seconds), String(seconds)).toThrow(SettingError);
    expect(() => waitCeiling(30)).toThrow(
      /integrationTimeoutSeconds=30 is not usable: give a whole number of seconds from 31 to 900/,
    );
    expect(waitCeiling(31)).toEqual({ integrationTimeoutSeconds: 31, ceilingSeconds: 30 });
    expect(() => new AutomotiveInferenceStack(testApp(), 'TooShort', { integrationTimeoutSeconds: 30 })).toThrow(
      SettingError,
    );
  });
});
