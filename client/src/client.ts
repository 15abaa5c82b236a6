import createFetchClient, { type Middleware } from 'openapi-fetch';
import { AisError, type ErrorBody } from './errors.js';
import type { components, paths } from './generated/openapi.js';
import { retryAfterSeconds } from './rate-limit.js';

export type { components, paths } from './generated/openapi.js';

/** Every slug with a `POST /v1/<slug>` that admits a job (`202`). */
export type JobSlug = {
  [P in keyof paths]: P extends `/v1/${infer S}`
    ? paths[P] extends { post: { responses: { 202: unknown } } }
      ? S
      : never
    : never;
}[keyof paths];

/** The job of one endpoint, its `result` typed as that endpoint's result. */
export type JobOf<S extends JobSlug> = paths[`/v1/${S}`] extends {
  post: { responses: { 202: { content: { 'application/json': infer J } } } };
}
  ? J
  : never;
export type Job = components['schemas']['Job'];
/** What `quote` answers. */
export type Quote = components['schemas']['Quote'];
/** What `jobs.redact` answers. */
export type Redaction = components['schemas']['Redaction'];
/** A batch (docs/batches.md): one JSONL file of calls, each line its own job. */
export type Batch = components['schemas']['Batch'];
export type BatchList = components['schemas']['BatchList'];

/** One line of a batch's input file: the JSON call body of the endpoint, and an optional `custom_id` copied to the output. */
export interface BatchLine {
  custom_id?: string;
  input_ref?: string;
  input_refs?: string[];
  params?: Record<string, unknown>;
}

export interface ClientOptions {
  baseUrl: string;
  /**
   * The bearer credential: an API key (`chk_live_…`/`chk_test_…`) for `/v1`, or a dashboard JWT
   * for `/mgmt/v1`. A function is asked before every request (a token that is renewed).
   */
  apiKey: string | (() => string);
  fetch?: typeof fetch;
  /** a fresh Idempotency-Key for every POST that has none (default: a random UUID) */
  idempotencyKey?: () => string;
}

export interface JobInput {
  /** multipart files (field name as the endpoint's: image, images, audio, video) */
  files?: Record<string, Blob | Blob[]>;
  /** JSON body (input_ref / input_refs and parameters); exclusive with `files` */
  json?: Record<string, unknown>;
  /** parameters sent as multipart fields alongside `files` */
  fields?: Record<string, string | number | boolean>;
  wait?: boolean;
  /** test keys only: X-Svc-Test-Scenario */
  scenario?: string;
  idempotencyKey?: string;
  /** Svc-Deadline: whole seconds (1 to 3600) after which an unsettled job expires, charged nothing (`deadline_exceeded`) */
  deadlineSeconds?: number;
}

export interface WaitOptions {
  timeoutMs?: number;
  /** the first wait; never below 1 s, the polling limit */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

const TERMINAL = new Set(['succeeded', 'failed', 'expired', 'canceled']);
/** `GET /v1/jobs/{id}` is limited to one poll a second. */
export const MIN_POLL_INTERVAL_MS = 1000;

/** A non-2xx answer as an `AisError`: its envelope, or a stand-in when the body is not one. */
function errorOf(response: Response, body: unknown): AisError {
  const error = (body as { error?: ErrorBody } | null | undefined)?.error ?? {
    type: 'internal',
    code: 'unknown',
    message: `HTTP ${response.status}`,
    param: null,
    doc_url: '',
    request_id: response.headers.get('request-id') ?? '',
  };
  return new AisError(response.status, error, retryAfterSeconds(response.headers));
}

async function toError(response: Response): Promise<AisError> {
  return errorOf(response, await response.json().catch(() => null));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The data of an `api` call, or its error thrown as an `AisError`:
 * `const org = await unwrap(client.api.GET('/mgmt/v1/organization'))`.
 */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorOf(response, error);
  return data as T;
}

/**
 * The typed client: `api` is openapi-fetch over the generated `paths` (every operation, typed
 * requests and responses); the helpers add what every caller needs: an Idempotency-Key on every
 * POST, errors as `AisError`, polling with backoff that never breaks the one-poll-a-second
 * limit, uploads in one call.
 */
export function createAisClient(options: ClientOptions) {
  // looked up at call time, so a test double installed after the client was made is used
  const fetchImpl: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));
  // Web Crypto's randomUUID: in Node (20+) and in browsers alike
  const newKey = options.idempotencyKey ?? (() => globalThis.crypto.randomUUID());
  const credential = typeof options.apiKey === 'function' ? options.apiKey : () => options.apiKey as string;
  const base = options.baseUrl.replace(/\/+$/, '');
  const authenticate: Middleware = {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${credential()}`);
      if (request.method === 'POST' && !request.headers.has('Idempotency-Key'))
        request.headers.set('Idempotency-Key', newKey());
      return request;
    },
  };
  const api = createFetchClient<paths>({ baseUrl: base, fetch: fetchImpl });
  api.use(authenticate);

  async function request(
    method: string,
    path: string,
    init: { body?: RequestInit['body']; headers?: Record<string, string>; idempotent?: boolean } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { Authorization: `Bearer ${credential()}`, ...init.headers };
    if (
      method === 'POST' &&
      init.idempotent !== false &&
      !Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key')
    )
      headers['Idempotency-Key'] = newKey();
    const response = await fetchImpl(`${base}${path}`, {
      method,
      headers,
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
    if (!response.ok) throw await toError(response);
    return response;
  }

  async function getJob(id: string): Promise<Job> {
    return (await (await request('GET', `/v1/jobs/${encodeURIComponent(id)}`)).json()) as Job;
  }

  /** Polls until the job settles: 1 s, then ×1.5 up to `maxDelayMs`; a 429 waits what its `RateLimit` field (or `Retry-After`) says. */
  async function waitForJob(id: string, wait: WaitOptions = {}): Promise<Job> {
    const deadline = Date.now() + (wait.timeoutMs ?? 10 * 60_000);
    let delayMs = Math.max(MIN_POLL_INTERVAL_MS, wait.initialDelayMs ?? MIN_POLL_INTERVAL_MS);
    for (;;) {
      try {
        const job = await getJob(id);
        if (TERMINAL.has(job.status)) return job;
      } catch (error) {
        if (!(error instanceof AisError && error.status === 429)) throw error;
        delayMs = Math.max(delayMs, (error.retryAfter ?? 1) * 1000);
      }
      if (Date.now() + delayMs > deadline) throw new Error(`job ${id} did not settle in time`);
      await sleep(delayMs);
      delayMs = Math.min(Math.max(MIN_POLL_INTERVAL_MS, delayMs * 1.5), wait.maxDelayMs ?? 10_000);
    }
  }

  async function createJob<S extends JobSlug>(slug: S, input: JobInput): Promise<JobOf<S>> {
    const headers: Record<string, string> = {};
    if (input.scenario) headers['X-Svc-Test-Scenario'] = input.scenario;
    if (input.idempotencyKey) headers['Idempotency-Key'] = input.idempotencyKey;
    if (input.deadlineSeconds !== undefined) headers['Svc-Deadline'] = String(input.deadlineSeconds);
    let body: RequestInit['body'];
    if (input.files) {
      const form = new FormData();
      for (const [field, value] of Object.entries(input.files))
        for (const file of [value].flat()) form.append(field, file, (file as File).name ?? field);
      for (const [name, value] of Object.entries(input.fields ?? {})) form.append(name, String(value));
      body = form;
    } else {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(input.json ?? {});
    }
    const response = await request('POST', `/v1/${slug}${input.wait ? '?wait=true' : ''}`, { body, headers });
    return (await response.json()) as JobOf<S>;
  }

  /** POST /v1/uploads, then PUT the bytes to the presigned URL; returns the `upload_ref`. */
  async function upload(bytes: Blob, contentType: string, filename?: string): Promise<string> {
    const created = await request('POST', '/v1/uploads', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ content_type: contentType, size_bytes: bytes.size, ...(filename ? { filename } : {}) }),
    });
    const { url, upload_ref: ref } = (await created.json()) as { url: string; upload_ref: string };
    const put = await fetchImpl(url, { method: 'PUT', headers: { 'Content-Type': contentType }, body: bytes });
    if (!put.ok) throw new Error(`upload PUT answered ${put.status}`);
    return ref;
  }

  /**
   * What a call would reserve now and charge on success, and whether it would be admitted
   * (`POST /v1/{slug}/quote`): `body` is the call's JSON body, where `inputs` may describe the files
   * (`{ content_type, size_bytes, duration_seconds? }`) instead of naming uploads. Writes nothing.
   */
  async function quote(slug: JobSlug, body: Record<string, unknown> = {}): Promise<Quote> {
    const response = await request('POST', `/v1/${slug}/quote`, {
      body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json' },
      idempotent: false,
    });
    return (await response.json()) as Quote;
  }

  /** Admits a job and waits for it to settle. */
  async function run<S extends JobSlug>(slug: S, input: JobInput, wait: WaitOptions = {}): Promise<JobOf<S>> {
    const admitted = (await createJob(slug, input)) as { id: string; status: string };
    if (TERMINAL.has(admitted.status)) return admitted as JobOf<S>;
    return (await waitForJob(admitted.id, wait)) as JobOf<S>;
  }

  /**
   * The two writes on a job: `cancel` a queued one (its reservation released), `redact` a settled
   * one (its files deleted and its result null for good; repeating it answers the first time).
   */
  const jobs = {
    cancel: async (id: string): Promise<Job> =>
      (await (await request('POST', `/v1/jobs/${encodeURIComponent(id)}/cancel`)).json()) as Job,
    redact: async (id: string): Promise<Redaction> =>
      (await (await request('POST', `/v1/jobs/${encodeURIComponent(id)}/redact`)).json()) as Redaction,
  };

  const json = (body: unknown) => ({ headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  /**
   * Batches: `create` from an uploaded JSONL file, `get`, `list`, `cancel`; `submit` uploads the
   * lines given as an array as that file and creates the batch in one call; `wait` polls until
   * every line is settled and the output file is written.
   */
  const batches = {
    create: async (input: { endpoint: string; input_file: string; idempotencyKey?: string }): Promise<Batch> => {
      const init = json({ endpoint: input.endpoint, input_file: input.input_file });
      const headers = input.idempotencyKey
        ? { ...init.headers, 'Idempotency-Key': input.idempotencyKey }
        : init.headers;
      return (await (await request('POST', '/v1/batches', { ...init, headers })).json()) as Batch;
    },
    get: async (id: string): Promise<Batch> =>
      (await (await request('GET', `/v1/batches/${encodeURIComponent(id)}`)).json()) as Batch,
    list: async (query: { limit?: number; starting_after?: string } = {}): Promise<BatchList> => {
      const search = new URLSearchParams(
        Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]),
      );
      return (await (await request('GET', `/v1/batches${search.size ? `?${search}` : ''}`)).json()) as BatchList;
    },
    cancel: async (id: string): Promise<Batch> =>
      (await (await request('POST', `/v1/batches/${encodeURIComponent(id)}/cancel`)).json()) as Batch,
    submit: async (endpoint: string, lines: readonly BatchLine[]): Promise<Batch> => {
      const file = new Blob([lines.map((line) => `${JSON.stringify(line)}\n`).join('')], { type: 'application/jsonl' });
      return batches.create({ endpoint, input_file: await upload(file, 'application/jsonl', 'batch.jsonl') });
    },
    wait: async (id: string, wait: WaitOptions = {}): Promise<Batch> => {
      const deadline = Date.now() + (wait.timeoutMs ?? 60 * 60_000);
      let delayMs = Math.max(MIN_POLL_INTERVAL_MS, wait.initialDelayMs ?? MIN_POLL_INTERVAL_MS);
      for (;;) {
        const batch = await batches.get(id);
        if (batch.status === 'succeeded' || batch.status === 'failed' || batch.status === 'canceled') return batch;
        if (Date.now() + delayMs > deadline) throw new Error(`batch ${id} did not finish in time`);
        await sleep(delayMs);
        delayMs = Math.min(delayMs * 1.5, wait.maxDelayMs ?? 10_000);
      }
    },
  };

  return { api, createJob, getJob, waitForJob, upload, run, quote, jobs, batches };
}
