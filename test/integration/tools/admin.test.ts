import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { memberIdOfSubject } from '../../../lambdas/domain/access/members.js';
import type { StandInsFile } from '../../../local/runtime-homes.js';
import { type AdminOutcome, runAdmin } from '../../../tools/admin/run.js';
import { withAws } from '../../support/aws-environment.js';
import { type CloudFormationDouble, startCloudFormationDouble } from '../../support/cloudformation-double.js';
import { type CognitoDouble, startCognitoDouble } from '../../support/cognito-double.js';
import { call, eventually, expectEnvelope, formWith, imageFile } from '../../support/http.js';
import { expectMoneyInvariants } from '../../support/invariants.js';
import { asRole } from '../../support/management.js';
import { startTestService, type TestService } from '../../support/service.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../..');

let svc: TestService;
let localDir: string;
let cloudFormation: CloudFormationDouble;
let cognito: CognitoDouble;
const USER_POOL = 'us-east-1_PoolOfAdm';

/** What npm start leaves in `.local/` while it runs, pointing at this test's runtime. */
function writeLocalDir(dir: string, standIns: Partial<StandInsFile> = {}): void {
  const file: StandInsFile = {
    dynamodb: inject('standIns').dynamodb,
    s3: inject('standIns').s3,
    table: svc.services.infrastructure.tableName,
    bucket: svc.services.infrastructure.bucketName,
    pid: process.pid,
    ...standIns,
  };
  writeFileSync(join(dir, 'stand-ins.json'), JSON.stringify(file));
  writeFileSync(
    join(dir, 'credentials.json'),
    JSON.stringify({ base_url: svc.baseUrl, org_id: svc.org.organization.id }),
  );
}

beforeAll(async () => {
  localDir = mkdtempSync(join(tmpdir(), 'ais-admin-'));
  svc = await startTestService({ signingKeyFile: join(localDir, 'jwt-signing-key.json'), signsAsLocalKey: true });
  writeLocalDir(localDir);
  const data = {
    TableName: svc.services.infrastructure.tableName,
    BucketName: svc.services.infrastructure.bucketName,
    ApiUrl: 'https://x/prod/',
  };
  cloudFormation = await startCloudFormationDouble({
    AutomotiveInferenceStack: data,
    // deployed with -c signup=cognito
    WithSignUp: {
      ...data,
      UserPoolId: USER_POOL,
      UserPoolClientId: 'client1',
      SignInDomainUrl: 'https://ais-1.auth.us-east-1.amazoncognito.com',
    },
    HalfDeployed: { ApiUrl: 'https://x/prod/' },
  });
  cognito = await startCognitoDouble(USER_POOL);
});
afterAll(async () => {
  await cognito.stop();
  await cloudFormation.stop();
  await svc.stop();
  rmSync(localDir, { recursive: true, force: true });
});

async function admin(...argv: string[]): Promise<any> {
  const outcome = await runAdmin(argv, { localDir });
  if (!outcome.ok) throw new Error(`admin ${argv.join(' ')}: ${JSON.stringify(outcome.error)}`);
  return outcome.value;
}

function expectFailure(outcome: AdminOutcome, code: string, message?: RegExp): void {
  expect(outcome.ok, JSON.stringify(outcome)).toBe(false);
  if (outcome.ok) return;
  expect(outcome.error.code).toBe(code);
  expect(outcome.error.message).not.toContain('\n');
  if (message) expect(outcome.error.message).toMatch(message);
}

describe('npm run admin on the local runtime', () => {
  it('create-organization: usable at once over HTTP, like a sign-up (free plan, 10,000 test credits, 0 live), its owner signed in', async () => {
    const created = await admin('create-organization', '--name', 'Acme', '--owner-email', 'Boss@Acme.example');
    expect(created).toEqual({
      org_id: expect.stringMatching(/^org_/),
      live_key: expect.stringMatching(/^chk_live_/),
      test_key: expect.stringMatching(/^chk_test_/),
      owner_jwt: expect.any(String),
    });
    const organization = await call(svc.baseUrl, 'GET', '/mgmt/v1/organization', { key: created.owner_jwt });
    expect(organization.body).toEqual({
      id: created.org_id,
      object: 'organization',
      name: 'Acme',
      plan: 'free',
      billing_country: 'DE',
      storage_retention_days: 30,
      balance: { live: 0, test: 10_000 },
    });
    const members = await call(svc.baseUrl, 'GET', '/mgmt/v1/members', { key: created.owner_jwt });
    expect(members.body.data).toEqual([
      expect.objectContaining({ object: 'member', email: 'boss@acme.example', role: 'owner', status: 'active' }),
    ]);

    // a test call settles and is charged from its own balance
    const job = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: created.test_key,
      form: formWith('image', [imageFile('acme')]),
    });
    expect(job.status).toBe(202);
    await eventually(
      async () =>
        (await call(svc.baseUrl, 'GET', `/v1/jobs/${job.body.id}`, { key: created.test_key })).body.status ===
        'succeeded',
    );
    // the live key works too (its balance is 0, so it is told so)
    expectEnvelope(
      await call(svc.baseUrl, 'POST', '/v1/plate.read', {
        key: created.live_key,
        form: formWith('image', [imageFile('acme')]),
      }),
      402,
      'insufficient_credits',
      'insufficient_credits',
    );
    await expectMoneyInvariants(svc.services, created.org_id, false);
    await expectMoneyInvariants(svc.services, created.org_id, true);
  });

  it('the created organisation is isolated from the seeded one, both ways', async () => {
    const created = await admin('create-organization', '--name', 'Isolated', '--plan', 'pro');
    const seededJob = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: svc.org.testKey,
      form: formWith('image', [imageFile('seeded')]),
    });
    expect((await call(svc.baseUrl, 'GET', '/v1/jobs', { key: created.test_key })).body.data).toEqual([]);
    expectEnvelope(
      await call(svc.baseUrl, 'GET', `/v1/jobs/${seededJob.body.id}`, { key: created.test_key }),
      403,
      'permission',
      'scope_not_granted',
    );
    expectEnvelope(
      await call(svc.baseUrl, 'GET', `/mgmt/v1/jobs/${seededJob.body.id}`, { key: created.owner_jwt }),
      403,
      'permission',
      'scope_not_granted',
    );
    const seededKeys = (await asRole(svc, 'owner', 'GET', '/mgmt/v1/api-keys')).body.data.map(
      (key: { id: string }) => key.id,
    );
    const theirKeys = (await call(svc.baseUrl, 'GET', '/mgmt/v1/api-keys', { key: created.owner_jwt })).body.data.map(
      (key: { id: string }) => key.id,
    );
    expect(theirKeys).toHaveLength(2);
    expect(theirKeys.some((id: string) => seededKeys.includes(id))).toBe(false);
    // the seeded organisation's people are no members of the new one
    expectEnvelope(
      await call(svc.baseUrl, 'GET', '/mgmt/v1/organization', { key: await svc.issuer.token(created.org_id, 'admin') }),
      401,
      'authentication',
      'invalid_token',
    );
  });

  it('grant-credits is an adjustment in the ledger with its reason, and the balance is the ledger’s sum', async () => {
    const created = await admin('create-organization', '--name', 'Granted');
    const entry = await admin(
      'grant-credits',
      '--org',
      created.org_id,
      '--mode',
      'live',
      '--amount',
      '5000',
      '--reason',
      'pilot contract',
    );
    expect(entry).toEqual({
      id: expect.stringMatching(/^led_/),
      object: 'ledger_entry',
      kind: 'adjustment',
      amount: 5000,
      job_id: null,
      livemode: true,
      created: expect.any(Number),
      reason: 'pilot contract',
    });
    const ledger = await call(svc.baseUrl, 'GET', '/mgmt/v1/ledger?livemode=true', { key: created.owner_jwt });
    const { reason: _reason, ...presented } = entry;
    expect(ledger.body.data).toEqual([presented]);
    // the reason is kept on the stored entry
    const [stored] = (await svc.services.accounts.listLedger({ orgId: created.org_id, livemode: true, limit: 1 }))
      .items;
    expect(stored).toMatchObject({ id: entry.id, kind: 'adjustment', reason: 'pilot contract' });
    expect((await call(svc.baseUrl, 'GET', '/mgmt/v1/organization', { key: created.owner_jwt })).body.balance).toEqual({
      live: 5000,
      test: 10_000,
    });
    // taking back is an adjustment too, never below zero
    expect(
      (await admin('grant-credits', '--org', created.org_id, '--mode', 'live', '--amount=-1500', '--reason', 'refund'))
        .amount,
    ).toBe(-1500);
    expectFailure(
      await runAdmin(
        ['grant-credits', '--org', created.org_id, '--mode', 'live', '--amount=-3501', '--reason', 'too much'],
        { localDir },
      ),
      'insufficient_balance',
    );
    expect(await svc.services.accounts.getBalance(created.org_id, true)).toBe(3500);
    await expectMoneyInvariants(svc.services, created.org_id, true);
    // and the live key can now spend
    const job = await call(svc.baseUrl, 'POST', '/v1/plate.read', {
      key: created.live_key,
      form: formWith('image', [imageFile('live')]),
    });
    expect(job.status).toBe(202);
  });

  it('create-api-key makes a key of the mode asked for, working at once', async () => {
    const created = await admin('create-organization', '--name', 'Keys');
    const key = await admin('create-api-key', '--org', created.org_id, '--mode', 'test', '--name', 'CI');
    expect(key).toEqual({ id: expect.stringMatching(/^key_/), secret: expect.stringMatching(/^chk_test_/) });
    expect((await call(svc.baseUrl, 'GET', '/v1/jobs', { key: key.secret })).status).toBe(200);
    const listed = (await call(svc.baseUrl, 'GET', '/mgmt/v1/api-keys', { key: created.owner_jwt })).body.data;
    expect(listed.find((k: { id: string }) => k.id === key.id)).toMatchObject({ name: 'CI', livemode: false });
  });

  it('list-organizations lists every organisation with its balances', async () => {
    const created = await admin('create-organization', '--name', 'Listed');
    const list = await admin('list-organizations');
    expect(list.object).toBe('list');
    const ids = list.data.map((org: { id: string }) => org.id);
    expect(ids).toEqual(
      expect.arrayContaining([created.org_id, svc.org.organization.id, svc.otherOrg.organization.id]),
    );
    expect(list.data.find((org: { id: string }) => org.id === created.org_id)).toMatchObject({
      object: 'organization',
      name: 'Listed',
      balance: { live: 0, test: 10_000 },
    });
  });

  it('set-retention sets the organisation’s storage retention, which its record then shows', async () => {
    const created = await admin('create-organization', '--name', 'Short memory');
    expect(
      (await call(svc.baseUrl, 'GET', '/mgmt/v1/organization', { key: created.owner_jwt })).body.storage_retention_days,
    ).toBe(30);
    const organization = await admin('set-retention', '--org', created.org_id, '--days', '7');
    expect(organization).toMatchObject({ id: created.org_id, object: 'organization', storage_retention_days: 7 });
    expect(
      (await call(svc.baseUrl, 'GET', '/mgmt/v1/organization', { key: created.owner_jwt })).body.storage_retention_days,
    ).toBe(7);
    for (const days of ['0', '366', '1.5'])
      expectFailure(
        await runAdmin(['set-retention', '--org', created.org_id, '--days', days], { localDir }),
        'invalid_arguments',
        /--days/,
      );
    expectFailure(
      await runAdmin(['set-retention', '--org', 'org_1111111111111111111111', '--days', '7'], { localDir }),
      'organization_not_found',
    );
  });

  it('an unknown organisation is a one-line error, and nothing is written', async () => {
    const unknown = 'org_1111111111111111111111';
    expectFailure(
      await runAdmin(['create-api-key', '--org', unknown, '--mode', 'test'], { localDir }),
      'organization_not_found',
      /org_1111111111111111111111/,
    );
    expectFailure(
      await runAdmin(['grant-credits', '--org', unknown, '--mode', 'test', '--amount', '5', '--reason', 'x'], {
        localDir,
      }),
      'organization_not_found',
    );
    expect(await svc.services.accounts.listApiKeys(unknown)).toEqual([]);
    expect((await svc.services.accounts.listLedger({ orgId: unknown, limit: 10 })).items).toEqual([]);
  });

  it('refuses bad arguments before reaching anything', async () => {
    const nowhere = { localDir: join(localDir, 'absent') };
    expectFailure(await runAdmin([], nowhere), 'invalid_arguments', /no command/);
    expectFailure(await runAdmin(['delete-everything'], nowhere), 'invalid_arguments', /unknown command/);
    expectFailure(await runAdmin(['create-organization'], nowhere), 'invalid_arguments', /--name is required/);
    expectFailure(
      await runAdmin(['create-organization', '--name', 'X', '--plan', 'platinum'], nowhere),
      'invalid_arguments',
      /--plan/,
    );
    expectFailure(
      await runAdmin(['create-api-key', '--org', 'acme', '--mode', 'test'], nowhere),
      'invalid_arguments',
      /--org/,
    );
    expectFailure(
      await runAdmin(['create-api-key', '--org', svc.org.organization.id, '--mode', 'prod'], nowhere),
      'invalid_arguments',
      /--mode/,
    );
    expectFailure(
      await runAdmin(
        ['grant-credits', '--org', svc.org.organization.id, '--mode', 'test', '--amount', '1.5', '--reason', 'x'],
        nowhere,
      ),
      'invalid_arguments',
      /--amount/,
    );
    expectFailure(
      await runAdmin(['grant-credits', '--org', svc.org.organization.id, '--mode', 'test', '--amount', '5'], nowhere),
      'invalid_arguments',
      /--reason/,
    );
    expectFailure(
      await runAdmin(['list-organizations', '--name', 'x'], nowhere),
      'invalid_arguments',
      /takes no --name/,
    );
    expectFailure(await runAdmin(['list-organizations', '--frob'], nowhere), 'invalid_arguments');
  });

  it('says to start npm start when it is not running: no stand-ins file, a stale one, or DynamoDB Local gone', async () => {
    expectFailure(
      await runAdmin(['list-organizations'], { localDir: join(localDir, 'absent') }),
      'local_not_running',
      /start it .*npm start/,
    );

    const stale = mkdtempSync(join(tmpdir(), 'ais-admin-stale-'));
    const gone = await run(process.execPath, ['-e', 'console.log(process.pid)']);
    writeLocalDir(stale, { pid: Number(gone.stdout.trim()) });
    expectFailure(
      await runAdmin(['list-organizations'], { localDir: stale }),
      'local_not_running',
      /process \d+ is gone/,
    );

    const closedPort = await new Promise<number>((done) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => done(port));
      });
    });
    writeLocalDir(stale, { dynamodb: `http://127.0.0.1:${closedPort}` });
    expectFailure(
      await runAdmin(['list-organizations'], { localDir: stale }),
      'local_not_running',
      /refuses connections/,
    );
    rmSync(stale, { recursive: true, force: true });
  });
});

describe('npm run admin --stack (a CloudFormation double, the DynamoDB stand-in as the stack’s table)', () => {
  // the region of the runtime's table: DynamoDB Local keeps each region's tables apart, as AWS does
  const aws = () => ({
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_CLOUDFORMATION: cloudFormation.endpoint,
    AWS_ENDPOINT_URL_DYNAMODB: inject('standIns').dynamodb,
  });

  it('reads the table from the stack outputs and creates the organisation there (no owner_jwt: the stack has its own issuer)', async () => {
    const outcome = await withAws(localDir, aws(), () =>
      runAdmin(['create-organization', '--name', 'Deployed', '--stack', 'AutomotiveInferenceStack']),
    );
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    if (!outcome.ok) return;
    expect(Object.keys(outcome.value).sort()).toEqual(['live_key', 'org_id', 'test_key']);
    const orgId = (outcome.value as { org_id: string }).org_id;
    expect(await svc.services.accounts.getOrganization(orgId)).toMatchObject({ name: 'Deployed', plan: 'free' });
    expect(cloudFormation.asked).toContain('AutomotiveInferenceStack');
    // the same code path grants and lists
    const granted = await withAws(localDir, aws(), () =>
      runAdmin([
        'grant-credits',
        '--org',
        orgId,
        '--mode',
        'live',
        '--amount',
        '100',
        '--reason',
        'staging',
        '--stack',
        'AutomotiveInferenceStack',
        '--region',
        'us-east-1',
      ]),
    );
    expect(granted).toMatchObject({ ok: true, value: { kind: 'adjustment', amount: 100, reason: 'staging' } });
  });

  it('on a stack with its own user pool, --owner-email invites the owner into it, so they can sign in as the owner', async () => {
    const outcome = await withAws(
      localDir,
      { ...aws(), AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: cognito.endpoint },
      () =>
        runAdmin([
          'create-organization',
          '--name',
          'Pooled',
          '--owner-email',
          'Owner@Pooled.example',
          '--stack',
          'WithSignUp',
        ]),
    );
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    if (!outcome.ok) return;
    const orgId = (outcome.value as { org_id: string }).org_id;
    const sub = cognito.users.get('owner@pooled.example')!;
    expect(cognito.invited).toEqual(['owner@pooled.example']);
    expect(await svc.services.members.list(orgId)).toEqual([
      expect.objectContaining({ id: memberIdOfSubject(sub), email: 'owner@pooled.example', role: 'owner' }),
    ]);
    // the pool's token for that person (sub = the Cognito user's) opens the organisation
    const token = await svc.issuer.token(orgId, 'owner', { userId: sub });
    expect((await call(svc.baseUrl, 'GET', '/mgmt/v1/organization', { key: token })).body.name).toBe('Pooled');
  });

  it('a stack that does not exist, or lacks the outputs, is a one-line error', async () => {
    expectFailure(
      await withAws(localDir, aws(), () => runAdmin(['list-organizations', '--stack', 'NoSuchStack'])),
      'stack_not_found',
      /NoSuchStack not found in us-east-1/,
    );
    expectFailure(
      await withAws(localDir, aws(), () => runAdmin(['list-organizations', '--stack', 'HalfDeployed'])),
      'stack_incomplete',
      /TableName/,
    );
  });

  it('without credentials or a region it says what to configure', async () => {
    const { AWS_ACCESS_KEY_ID: _id, AWS_SECRET_ACCESS_KEY: _secret, ...noCredentials } = aws();
    expectFailure(
      await withAws(localDir, noCredentials, () =>
        runAdmin(['list-organizations', '--stack', 'AutomotiveInferenceStack']),
      ),
      'no_credentials',
      /AWS_PROFILE/,
    );
    const { AWS_REGION: _region, ...noRegion } = aws();
    expectFailure(
      await withAws(localDir, noRegion, () => runAdmin(['list-organizations', '--stack', 'AutomotiveInferenceStack'])),
      'no_region',
      /--region/,
    );
  });
});

describe('the command line', () => {
  const cli = (args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'tools/admin.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, AIS_LOCAL_DIR: localDir },
    }).then(
      (done) => ({ code: 0, ...done }),
      (failed: { code: number; stdout: string; stderr: string }) => failed,
    );

  it('prints exactly one JSON object on stdout, or one on stderr with exit code 1, each ending its line', async () => {
    const listed = await cli(['list-organizations']);
    expect(listed.code).toBe(0);
    expect(listed.stderr).toBe('');
    // the shell's prompt starts on a line of its own after the JSON
    expect(listed.stdout.endsWith('}\n')).toBe(true);
    expect(JSON.parse(listed.stdout)).toMatchObject({ object: 'list' });
    const failed = await cli(['create-api-key', '--org', 'org_1111111111111111111111', '--mode', 'test']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr.trim().split('\n')).toHaveLength(1);
    expect(failed.stderr.endsWith('}\n')).toBe(true);
    expect(JSON.parse(failed.stderr)).toEqual({
      error: { code: 'organization_not_found', message: expect.any(String) },
    });
  });
});
