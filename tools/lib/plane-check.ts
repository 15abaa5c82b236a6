import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { SUBMIT_TIMEOUT_MS } from '../../lambdas/adapters/http-inference-plane.js';
import { CATALOGUE, type EndpointSlug, modelVersionOf } from '../../lambdas/domain/catalogue/catalogue.js';
import { randomBase58, timeOrderedId } from '../../lambdas/domain/kernel/ids.js';
import {
  INFERENCE_SIGNATURE_HEADER,
  SIGNATURE_TOLERANCE_SECONDS,
  signatureHeader,
  verifySignatureHeader,
} from '../../lambdas/domain/kernel/signatures.js';
import type { InferenceSlug } from '../../lambdas/sandbox/types.js';
import { CompletionCallbackSchema } from '../../lambdas/schemas/completions.js';
import type { InferenceSubmission } from '../../lambdas/schemas/inference-plane.js';
import { replaceFileRefs } from '../../lambdas/schemas/results/file-refs.js';
import { loadResultSchema, RESULT_SLUGS } from '../../lambdas/schemas/results/load.js';

/** One line of the report: what was checked, and what was seen. */
export interface CheckResult {
  passed: boolean;
  name: string;
  detail: string;
}

export interface PlaneCheckOptions {
  /** the plane's submission URL (what INFERENCE_PLANE_URL would be) */
  url: string;
  /** the secret shared with the plane */
  secret: string;
  endpoint?: EndpointSlug;
  /** named in the submission; the plane writes produced files there */
  bucket?: string;
  /** the address the plane reaches this checker's callback receiver at (default http://127.0.0.1:<port>/completions) */
  callbackUrl?: string;
  /** the receiver's port (0: any) */
  port?: number;
  /** how long to wait for each callback */
  timeoutSeconds?: number;
  /** told of each result as it is known */
  onResult?: (result: CheckResult) => void;
}

interface Callback {
  receivedMs: number;
  headers: IncomingMessage['headers'];
  body: string;
}

const INPUT_TYPES: Record<string, { contentType: string; name: string }> = {
  image: { contentType: 'image/jpeg', name: 'check.jpg' },
  images: { contentType: 'image/jpeg', name: 'check.jpg' },
  audio: { contentType: 'audio/wav', name: 'check.wav' },
  video: { contentType: 'video/mp4', name: 'check.mp4' },
  document: { contentType: 'application/pdf', name: 'check.pdf' },
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A submission as the service builds it, for a job that exists only in this check. */
function submissionFor(endpoint: EndpointSlug, bucket: string, callbackUrl: string): InferenceSubmission {
  const jobId = timeOrderedId('job', Date.now());
  const orgId = `org_${randomBase58(22)}`;
  const input = INPUT_TYPES[CATALOGUE[endpoint].inputKind];
  const bytes = Buffer.from(`plane:check ${jobId}`);
  return {
    job_id: jobId,
    endpoint,
    model_version: modelVersionOf(CATALOGUE[endpoint]),
    params: {},
    inputs: input
      ? [
          {
            index: 0,
            object_key: `inputs/${orgId}/${jobId}/0`,
            content_type: input.contentType,
            size_bytes: bytes.length,
            sha256: createHash('sha256').update(bytes).digest('hex'),
            filename: input.name,
          },
        ]
      : [],
    bucket,
    output_prefix: `outputs/${orgId}/${jobId}/`,
    callback_url: callbackUrl,
  };
}

async function post(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(SUBMIT_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return { status: response.status, ms: Math.round(performance.now() - started) };
  } catch {
    return { status: 0, ms: Math.round(performance.now() - started) };
  }
}

/** What a valid callback must be: signed with the shared secret and dated now, a CompletionCallback for this job, its result as the endpoint documents it. */
async function checkCallback(callback: Callback, submission: InferenceSubmission, secret: string): Promise<string[]> {
  const problems: string[] = [];
  const signature = callback.headers[INFERENCE_SIGNATURE_HEADER.toLowerCase()];
  const failure = verifySignatureHeader(
    typeof signature === 'string' ? signature : undefined,
    callback.body,
    secret,
    Math.floor(Date.now() / 1000),
  );
  if (failure) problems.push(`${INFERENCE_SIGNATURE_HEADER} ${failure.replace('_', ' ')}`);
  let body: unknown;
  try {
    body = JSON.parse(callback.body);
  } catch {
    return [...problems, 'the body is not JSON'];
  }
  const parsed = CompletionCallbackSchema.safeParse(body);
  if (!parsed.success)
    return [...problems, ...parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`)];
  const completion = parsed.data;
  if (completion.job_id !== submission.job_id)
    problems.push(`job_id ${completion.job_id} is not the submitted ${submission.job_id}`);
  if (completion.status === 'succeeded' && (RESULT_SLUGS as string[]).includes(submission.endpoint)) {
    const placeholder = {
      url: 'https://placeholder.invalid/file',
      expires_at: 0,
      content_type: 'application/octet-stream',
      width: null,
      height: null,
      size_bytes: 0,
    };
    const result = (await loadResultSchema(submission.endpoint as InferenceSlug)).safeParse(
      replaceFileRefs(completion.result, () => placeholder),
    );
    if (!result.success)
      problems.push(...result.error.issues.map((issue) => `result.${issue.path.join('.')}: ${issue.message}`));
  }
  if (
    completion.status === 'succeeded' &&
    CATALOGUE[submission.endpoint].metering === 'per_second' &&
    completion.billable_units === undefined
  ) {
    problems.push(`${submission.endpoint} bills per second: billable_units is required`);
  }
  return problems;
}

/**
 * Checks an inference plane against its interface (docs/internals/inference-plane.md): it must refuse
 * unsigned, wrongly signed and malformed submissions, accept a signed one within the service's
 * submit timeout, call back signed and dated with a valid CompletionCallback for the job, try
 * again after a 503, and accept the same job submitted again.
 */
export async function checkPlane(options: PlaneCheckOptions): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const record = (passed: boolean, name: string, detail: string) => {
    const result = { passed, name, detail };
    results.push(result);
    options.onResult?.(result);
  };
  const callbacks: Callback[] = [];
  let wake: (() => void) | null = null;
  // the first callback is answered 503, so that the plane has to show it tries again
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
    callbacks.push({ receivedMs: Date.now(), headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
    wake?.();
    const first = callbacks.length === 1;
    response.writeHead(first ? 503 : 200, { 'Content-Type': 'application/json' });
    response.end(
      first
        ? JSON.stringify({ error: { code: 'service_unavailable', message: 'plane:check asks for a retry' } })
        : JSON.stringify({ received: true }),
    );
  });
  await new Promise<void>((done) =>
    server.listen(options.port ?? 0, options.callbackUrl ? '0.0.0.0' : '127.0.0.1', done),
  );
  const address = server.address();
  const callbackUrl =
    options.callbackUrl ?? `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/completions`;
  const timeoutMs = (options.timeoutSeconds ?? 60) * 1000;
  const nextCallback = async (count: number): Promise<Callback | null> => {
    const deadline = Date.now() + timeoutMs;
    while (callbacks.length < count && Date.now() < deadline) {
      await new Promise<void>((done) => {
        wake = done;
        setTimeout(done, 250);
      });
    }
    return callbacks[count - 1] ?? null;
  };

  try {
    const submission = submissionFor(options.endpoint ?? 'plate.read', options.bucket ?? 'plane-check', callbackUrl);
    const body = JSON.stringify(submission);
    const signed = (payload: string, secret = options.secret) => ({
      [INFERENCE_SIGNATURE_HEADER]: signatureHeader(payload, secret, Math.floor(Date.now() / 1000)),
    });
    const refused = (status: number) => status >= 400 && status < 500;

    const unsigned = await post(options.url, body, {});
    record(
      refused(unsigned.status),
      'refuses an unsigned submission (401)',
      `answered ${unsigned.status || 'nothing'}`,
    );
    const forged = await post(options.url, body, signed(body, `not-${options.secret}`));
    record(
      refused(forged.status),
      'refuses a submission signed with another secret (401)',
      `answered ${forged.status || 'nothing'}`,
    );
    const { job_id: _, ...incomplete } = submission;
    const malformed = JSON.stringify(incomplete);
    const invalid = await post(options.url, malformed, signed(malformed));
    record(
      refused(invalid.status),
      'refuses a submission without job_id (400)',
      `answered ${invalid.status || 'nothing'}`,
    );

    const accepted = await post(options.url, body, signed(body));
    const acceptedOk = accepted.status >= 200 && accepted.status < 300;
    record(
      acceptedOk,
      `accepts a signed ${submission.endpoint} submission within ${seconds(SUBMIT_TIMEOUT_MS)}`,
      `answered ${accepted.status || 'nothing'} in ${accepted.ms} ms`,
    );
    if (!acceptedOk) return results;
    const acceptedAt = Date.now();

    const first = await nextCallback(1);
    record(
      first !== null,
      `calls back within ${seconds(timeoutMs)}`,
      first ? `after ${seconds(first.receivedMs - acceptedAt)} at ${callbackUrl}` : 'no callback',
    );
    if (!first) return results;
    const problems = await checkCallback(first, submission, options.secret);
    const outcome = CompletionCallbackSchema.safeParse(JSON.parse(first.body || 'null'));
    record(
      problems.length === 0,
      `the callback is signed (tolerance ${SIGNATURE_TOLERANCE_SECONDS} s) and a valid CompletionCallback for ${submission.job_id}`,
      problems.length ? problems.join('; ') : `${outcome.data?.status}, model ${outcome.data?.model_version}`,
    );
    const retry = await nextCallback(2);
    const retryProblems = retry ? await checkCallback(retry, submission, options.secret) : [];
    record(
      retry !== null && retryProblems.length === 0,
      'tries the callback again after a 503',
      retry
        ? retryProblems.length
          ? retryProblems.join('; ')
          : `after ${seconds(retry.receivedMs - first.receivedMs)}, signed afresh`
        : 'no second attempt',
    );
    const again = await post(options.url, body, signed(body));
    record(
      again.status >= 200 && again.status < 300,
      'accepts the same job submitted again',
      `answered ${again.status || 'nothing'}`,
    );
    return results;
  } finally {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
}
