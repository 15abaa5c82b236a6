import { setTimeout as delay } from 'node:timers/promises';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: {
    key?: string;
    json?: unknown;
    form?: FormData;
    headers?: Record<string, string>;
    rawBody?: string | Buffer;
  } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.Authorization = `Bearer ${options.key}`;
  let body: RequestInit['body'] | undefined;
  if (options.json !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) body = options.form;
  else if (options.rawBody !== undefined) body = options.rawBody as RequestInit['body'];
  const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

/** A small JPEG-looking file; its bytes vary with `seed` so sandbox models see different inputs. */
export function imageFile(seed = 'car', type = 'image/jpeg', bytes = 2048): Blob {
  const buffer = Buffer.alloc(bytes, seed);
  buffer[0] = 0xff;
  buffer[1] = 0xd8;
  return new Blob([buffer], { type });
}

export function formWith(field: string, files: Blob[], fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [i, file] of files.entries()) form.append(field, file, `asset-${i}.jpg`);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

/** Polls until `check` returns a value, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 15_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await delay(intervalMs);
  }
}

export function expectEnvelope(
  response: ApiResponse,
  status: number,
  type: string,
  code: string,
  param?: string | null,
): void {
  const problems: string[] = [];
  if (response.status !== status) problems.push(`status ${response.status} != ${status}`);
  const error = response.body?.error;
  if (!error) problems.push('no error envelope');
  else {
    if (Object.keys(response.body).length !== 1) problems.push('extra top-level properties');
    const keys = Object.keys(error).sort().join(',');
    if (keys !== 'code,doc_url,message,param,request_id,type') problems.push(`envelope keys ${keys}`);
    if (error.type !== type) problems.push(`type ${error.type} != ${type}`);
    if (error.code !== code) problems.push(`code ${error.code} != ${code}`);
    if (param !== undefined && error.param !== param) problems.push(`param ${error.param} != ${param}`);
    if (!String(error.doc_url).endsWith(`/errors/${error.code}`)) problems.push(`doc_url ${error.doc_url}`);
    // every answer, the service's and API Gateway's own (docs/internals/deploy.md), names its request id in both places
    if (error.request_id !== response.headers.get('request-id')) problems.push('request_id does not mirror Request-Id');
  }
  if (problems.length) throw new Error(`${problems.join('; ')}\n${JSON.stringify(response.body)}`);
}
