/** The dashboard talks to /mgmt/v1 only, with the JWT kept in sessionStorage (never in a URL query). */
const TOKEN_KEY = 'ais.dashboard.token';

export function token(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function signIn(jwt: string): void {
  sessionStorage.setItem(TOKEN_KEY, jwt);
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: { error?: { code: string; message: string } },
  ) {
    super(body.error ? `${body.error.code}: ${body.error.message}` : `HTTP ${status}`);
  }
}

export async function mgmt<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token() ?? ''}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method === 'POST') headers['Idempotency-Key'] = crypto.randomUUID();
  const response = await fetch(`/mgmt/v1${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiFailure(response.status, parsed ?? {});
  return parsed as T;
}
