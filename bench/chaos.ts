import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from '../local/stand-ins/free-port.js';
import { vin } from '../test/support/batches.js';
import { Receiver } from '../test/support/receiver.js';

/**
 * `npm run chaos`: mixed traffic against `npm start` (admissions in both modes, polls, waits,
 * management reads, inspections, batches, webhooks to a local receiver) while the runtime process (its
 * worker loops, DynamoDB Local, the S3/SQS stand-in, everything) is killed with SIGKILL or
 * SIGTERM at random points and started again on the same data. After a last clean start it waits
 * for the work to settle and checks what must hold whatever happened. Loopback only, bounded.
 */

const REPO = resolve(import.meta.dirname, '..');
const TERMINAL = new Set(['succeeded', 'failed', 'expired', 'canceled']);
const BATCH_FINISHED = new Set(['succeeded', 'failed', 'canceled']);
// small and seldom: each line of pricing.vehicle costs 10 test credits
const BATCH_LINES = 30;

interface Credentials {
  base_url: string;
  org_id: string;
  live_key: string;
  test_key: string;
  owner_jwt: string;
}

export interface ChaosOptions {
  /** how long traffic and kills go on */
  durationMs: number;
  /** a kill every this long, ± half */
  killEveryMs: number;
  /** how long the settle phase may take before the run is declared failed */
  settleTimeoutMs: number;
  log?: (line: string) => void;
}

export interface ChaosReport {
  kills: number;
  requests: number;
  refusedWhileDown: number;
  jobs: number;
  inspections: number;
  batches: number;
  events: number;
  checks: Array<{ name: string; ok: boolean; detail: string }>;
}

class LocalRuntime {
  private process: ChildProcess | undefined;
  credentials!: Credentials;

  constructor(
    private readonly cwd: string,
    private readonly port: number,
    private readonly s3Port: number,
  ) {}

  async start(): Promise<void> {
    let output = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'local/main.ts'], {
      cwd: this.cwd,
      env: { ...process.env, PORT: String(this.port), S3_PORT: String(this.s3Port), LOG_LEVEL: 'ERROR' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr!.on('data', (chunk) => {
      output += chunk;
    });
    this.process = child;
    const deadline = Date.now() + 60_000;
    while (!output.includes('listening on')) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`the runtime did not start: ${output.slice(-2000)}`);
      await delay(50);
    }
    this.credentials = JSON.parse(readFileSync(join(this.cwd, '.local', 'credentials.json'), 'utf8')) as Credentials;
  }

  async kill(signal: NodeJS.Signals): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill(signal);
    await Promise.race([exited, delay(15_000).then(() => child.kill('SIGKILL'))]);
    await exited;
    // java notices its parent is gone through its stdin; give it a moment to let go of the data files
    await delay(500);
  }
}

async function api(
  base: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  form?: FormData,
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  let payload: RequestInit['body'];
  if (form) payload = form;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(payload ? { body: payload } : {}),
    signal: AbortSignal.timeout(40_000),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function allPages(base: string, token: string, path: string): Promise<any[]> {
  const items: any[] = [];
  let after = '';
  for (;;) {
    const page = await api(
      base,
      'GET',
      `${path}${path.includes('?') ? '&' : '?'}limit=100${after ? `&starting_after=${after}` : ''}`,
      token,
    );
    if (page.status !== 200) throw new Error(`${path}: ${page.status} ${JSON.stringify(page.body)}`);
    items.push(...page.body.data);
    if (!page.body.has_more) return items;
    after = page.body.data.at(-1).id;
  }
}

function image(seed: number): FormData {
  const form = new FormData();
  const bytes = Buffer.alloc(2048, seed % 251);
  bytes[0] = 0xff;
  bytes[1] = 0xd8;
  form.append('image', new Blob([bytes], { type: 'image/jpeg' }), `car-${seed}.jpg`);
  return form;
}

async function upload(base: string, key: string, contentType: string, bytes: Buffer): Promise<string> {
  const created = await api(base, 'POST', '/v1/uploads', key, { content_type: contentType, size_bytes: bytes.length });
  if (created.status !== 201) throw new Error(`upload: ${created.status}`);
  const put = await fetch(created.body.url, { method: 'PUT', headers: { 'Content-Type': contentType }, body: bytes });
  if (!put.ok) throw new Error(`PUT: ${put.status}`);
  return created.body.upload_ref;
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? (() => undefined);
  const cwd = mkdtempSync(join(tmpdir(), 'ais-chaos-'));
  for (const name of readdirSync(REPO)) if (!name.startsWith('.')) symlinkSync(join(REPO, name), join(cwd, name));
  const runtime = new LocalRuntime(cwd, await freePort(), await freePort());
  const receiver = await new Receiver().start();
  const report: ChaosReport = {
    kills: 0,
    requests: 0,
    refusedWhileDown: 0,
    jobs: 0,
    inspections: 0,
    batches: 0,
    events: 0,
    checks: [],
  };
  try {
    await runtime.start();
    const base = runtime.credentials.base_url;
    // an endpoint receives its own mode's events only: one per mode, to the same receiver
    for (const livemode of [false, true]) {
      const hook = await api(base, 'POST', '/mgmt/v1/webhook-endpoints', runtime.credentials.owner_jwt, {
        url: receiver.url,
        livemode,
        enabled_events: ['job.succeeded', 'job.failed', 'inspection.stage_completed', 'batch.completed'],
      });
      if (hook.status !== 201) throw new Error(`webhook endpoint: ${hook.status} ${JSON.stringify(hook.body)}`);
    }

    const submitted = new Set<string>();
    const batches = new Set<string>();
    let running = true;
    let up = true;
    const attempt = async (work: () => Promise<void>) => {
      report.requests += 1;
      try {
        await work();
      } catch {
        // the runtime was down or went down mid-request: expected under chaos
        report.refusedWhileDown += 1;
        await delay(200);
      }
    };
    const remember = (answer: { status: number; body: any }) => {
      if (answer.status === 202 && typeof answer.body?.id === 'string') submitted.add(answer.body.id);
    };
    const submitBatch = async (seed: number) => {
      // BATCH_LINES lines, one of them not JSON
      const lines = Array.from({ length: BATCH_LINES }, (_, n) =>
        n === 7 ? 'not json' : JSON.stringify({ custom_id: `${seed}-${n}`, params: { vin: vin(seed * 1000 + n) } }),
      );
      const testKey = runtime.credentials.test_key;
      const file = await upload(base, testKey, 'application/jsonl', Buffer.from(`${lines.join('\n')}\n`));
      const created = await api(base, 'POST', '/v1/batches', testKey, {
        endpoint: 'pricing.vehicle',
        input_file: file,
      });
      if (created.status === 202) batches.add(created.body.id);
    };
    let seed = 0;
    const traffic = async (kind: number) => {
      for (let round = 0; running; round += 1) {
        if (!up) {
          await delay(100);
          continue;
        }
        const { test_key: testKey, live_key: liveKey, owner_jwt: owner } = runtime.credentials;
        seed += 1;
        await attempt(async () => {
          if (kind === 0) remember(await api(base, 'POST', '/v1/plate.read', testKey, undefined, image(seed)));
          if (kind === 1) remember(await api(base, 'POST', '/v1/vin.read', liveKey, undefined, image(seed)));
          if (kind === 2) remember(await api(base, 'POST', '/v1/tire.read?wait=true', testKey, undefined, image(seed)));
          if (kind === 3) {
            const known = [...submitted];
            if (known.length) await api(base, 'GET', `/v1/jobs/${known[seed % known.length]}`, testKey);
            await api(base, 'GET', '/mgmt/v1/organization', owner);
            await api(base, 'GET', '/mgmt/v1/ledger?limit=5', owner);
          }
          if (kind === 4 && seed % 4 === 0) {
            const refs = [
              await upload(base, testKey, 'video/mp4', Buffer.alloc(4096, seed % 251)),
              await upload(base, testKey, 'image/jpeg', Buffer.alloc(2048, (seed + 1) % 251)),
            ];
            remember(await api(base, 'POST', '/v1/inspections', testKey, { input_refs: refs }));
          }
          if (kind === 5) remember(await api(base, 'POST', '/v1/plate.read', testKey, undefined, image(seed)));
          if (kind === 6 && round % 12 === 11) await submitBatch(seed);
        });
        await delay(kind === 3 ? 300 : 120);
      }
    };
    // two batches before the first kill, so every run has some whose lines a kill may interrupt
    for (const seed of [1, 2]) await submitBatch(seed);
    const generators = [0, 1, 2, 3, 4, 5, 6].map((kind) => traffic(kind));

    const stopAt = Date.now() + options.durationMs;
    while (Date.now() < stopAt) {
      await delay(options.killEveryMs * (0.5 + Math.random()));
      if (Date.now() >= stopAt) break;
      const signal: NodeJS.Signals = Math.random() < 0.75 ? 'SIGKILL' : 'SIGTERM';
      up = false;
      await runtime.kill(signal);
      report.kills += 1;
      log(`kill ${report.kills} (${signal}) after ${submitted.size} jobs submitted`);
      await runtime.start();
      up = true;
    }
    running = false;
    await Promise.all(generators);

    // a last clean restart, then the work settles
    up = false;
    await runtime.kill('SIGTERM');
    await runtime.start();
    const owner = runtime.credentials.owner_jwt;
    log(`settling ${submitted.size} jobs`);
    const settleBy = Date.now() + options.settleTimeoutMs;
    let jobs: any[] = [];
    for (;;) {
      jobs = await allPages(base, owner, '/mgmt/v1/jobs');
      const open = jobs.filter((job) => !TERMINAL.has(job.status));
      if (open.length === 0 || Date.now() > settleBy) break;
      await delay(1000);
    }
    report.jobs = jobs.length;
    report.inspections = jobs.filter((job) => job.endpoint === 'inspections').length;
    const catalogue = (await api(base, 'GET', '/v1/endpoints', runtime.credentials.test_key)).body.data as Array<{
      slug: string;
      queue_timeout_seconds: number;
    }>;
    const queueTimeout = new Map(catalogue.map((entry) => [entry.slug, entry.queue_timeout_seconds]));
    const now = Math.floor(Date.now() / 1000);
    const check = (name: string, ok: boolean, detail: string) => report.checks.push({ name, ok, detail });

    // 1. every job the clients were told about exists, and none sits outside its timeout
    const known = new Set(jobs.map((job) => job.id));
    const missing = [...submitted].filter((id) => !known.has(id));
    check('every admitted job exists', missing.length === 0, `${submitted.size} admitted, ${missing.length} missing`);
    const overdue = jobs.filter(
      (job) =>
        (job.status === 'queued' && now > job.created + (queueTimeout.get(job.endpoint) ?? 900)) ||
        (job.status === 'processing' && now > (job.started_at ?? job.created) + 3600),
    );
    const open = jobs.filter((job) => !TERMINAL.has(job.status));
    check(
      'no job outside its timeout',
      overdue.length === 0,
      `${open.length} still open within their timeouts, ${overdue.length} past them`,
    );
    check(
      'every job settled after recovery',
      open.length === 0,
      `${jobs.length - open.length} of ${jobs.length} terminal`,
    );

    // 2. money: the ledger sums to the balance in both modes; every settled job charged once
    const organization = (await api(base, 'GET', '/mgmt/v1/organization', owner)).body;
    const ledger = await allPages(base, owner, '/mgmt/v1/ledger');
    for (const mode of ['live', 'test'] as const) {
      const sum = ledger
        .filter((entry) => entry.livemode === (mode === 'live'))
        .reduce((total, entry) => total + entry.amount, 0);
      check(
        `ledger sum = ${mode} balance`,
        sum === organization.balance[mode],
        `ledger ${sum}, balance ${organization.balance[mode]}`,
      );
    }
    const byJob = new Map<string, any[]>();
    for (const entry of ledger) if (entry.job_id) byJob.set(entry.job_id, [...(byJob.get(entry.job_id) ?? []), entry]);
    const wronglyCharged = jobs.filter((job) => {
      if (!TERMINAL.has(job.status) || job.credits.reserved === 0) return false;
      const entries = byJob.get(job.id) ?? [];
      const reserves = entries.filter((entry) => entry.kind === 'reserve').length;
      const charged = -entries.reduce((total, entry) => total + entry.amount, 0);
      return reserves !== 1 || charged !== job.credits.charged || (job.status !== 'succeeded' && charged !== 0);
    });
    check(
      'every settled job charged once',
      wronglyCharged.length === 0,
      `${wronglyCharged.length} jobs whose ledger entries disagree with their charge`,
    );

    // 3. exactly one event per settled job (stage jobs announce nothing; canceled jobs neither), delivered
    const events = await allPages(base, owner, '/mgmt/v1/events');
    report.events = events.length;
    const jobEvents = new Map<string, number>();
    for (const event of events)
      if (event.type === 'job.succeeded' || event.type === 'job.failed')
        jobEvents.set(event.data.job.id, (jobEvents.get(event.data.job.id) ?? 0) + 1);
    // stage jobs are the inspections' own children: they are announced through their inspection
    const stageJobs = new Set(
      jobs.flatMap((job) => (job.stages ?? []).map((stage: { job_id: string | null }) => stage.job_id)).filter(Boolean),
    );
    const announced = jobs.filter(
      (job) => ['succeeded', 'failed', 'expired'].includes(job.status) && !stageJobs.has(job.id),
    );
    const wrongEvents = announced.filter((job) => jobEvents.get(job.id) !== 1);
    check(
      'exactly one event per settled job',
      wrongEvents.length === 0 && jobEvents.size === announced.length,
      `${announced.length} settled, ${jobEvents.size} announced, ${wrongEvents.length} wrong`,
    );
    const deliverBy = Date.now() + options.settleTimeoutMs;
    const ids = () => new Set(receiver.requests.map((request) => String(request.headers['svc-event-id'])));
    while (events.some((event) => !ids().has(event.id)) && Date.now() < deliverBy) await delay(1000);
    const undelivered = events.filter((event) => !ids().has(event.id));
    check(
      'every event reached the receiver',
      undelivered.length === 0,
      `${events.length - undelivered.length} of ${events.length} events received (${receiver.requests.length} requests in all)`,
    );

    // 4. inspections: every stage of every settled inspection settled
    // 5. batches: each finishes, and every line ends exactly once, as one job or one failed line
    report.batches = batches.size;
    const testKey = runtime.credentials.test_key;
    const wrongBatches: string[] = [];
    for (const id of batches) {
      let batch = (await api(base, 'GET', `/v1/batches/${id}`, testKey)).body;
      while (!BATCH_FINISHED.has(batch.status) && Date.now() < settleBy + options.settleTimeoutMs) {
        await delay(1000);
        batch = (await api(base, 'GET', `/v1/batches/${id}`, testKey)).body;
      }
      const counts = batch.counts;
      const output: Array<{ job_id: string | null; status: string }> = batch.output_file
        ? (await (await fetch(batch.output_file.url)).text())
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line))
        : [];
      const jobIds = output.map((line) => line.job_id).filter((jobId): jobId is string => jobId !== null);
      const listed = new Set((await allPages(base, testKey, `/v1/jobs?batch=${id}`)).map((job) => job.id));
      const ok =
        BATCH_FINISHED.has(batch.status) &&
        counts.total === BATCH_LINES &&
        counts.queued + counts.processing === 0 &&
        counts.succeeded + counts.failed + counts.canceled === counts.total &&
        output.length === BATCH_LINES &&
        new Set(jobIds).size === jobIds.length &&
        listed.size === jobIds.length &&
        jobIds.every((jobId) => listed.has(jobId));
      if (!ok)
        wrongBatches.push(
          `${id} ${batch.status} ${JSON.stringify(counts)}: ${output.length} output lines, ${jobIds.length} jobs named, ${listed.size} listed`,
        );
    }
    check(
      'every batch line ended exactly once',
      wrongBatches.length === 0,
      `${batches.size} batches${wrongBatches.length ? `; wrong: ${wrongBatches.join('; ')}` : ''}`,
    );

    const inspections = jobs.filter(
      (job) =>
        job.endpoint === 'inspections' &&
        TERMINAL.has(job.status) &&
        job.status !== 'canceled' &&
        job.status !== 'expired',
    );
    const unsettledStages = inspections.filter((job) =>
      (job.stages ?? []).some((stage: { status: string }) => !TERMINAL.has(stage.status)),
    );
    check(
      'every stage of every inspection settled',
      unsettledStages.length === 0,
      `${inspections.length} inspections, ${unsettledStages.length} with an open stage`,
    );
    const stageEvents = events.filter((event) => event.type === 'inspection.stage_completed');
    const wrongStageCounts = inspections.filter(
      (job) => job.status === 'succeeded' && stageEvents.filter((event) => event.data.job.id === job.id).length !== 8,
    );
    check(
      'eight stage events per succeeded inspection',
      wrongStageCounts.length === 0,
      `${wrongStageCounts.length} inspections without exactly eight`,
    );
    return report;
  } finally {
    await runtime.kill('SIGTERM').catch(() => undefined);
    await receiver.stop();
    rmSync(cwd, { recursive: true, force: true });
  }
}

export function formatChaosReport(report: ChaosReport): string {
  return [
    `${report.kills} kills · ${report.requests} client calls (${report.refusedWhileDown} refused while down) · ${report.jobs} jobs (${report.inspections} inspections) · ${report.batches} batches · ${report.events} events`,
    ...report.checks.map((check) => `${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}`),
  ].join('\n');
}
