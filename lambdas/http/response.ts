import type { APIGatewayProxyResult } from 'aws-lambda';
import { ApiError } from '../domain/kernel/errors.js';

export interface HttpResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** raw text bodies (error pages) skip JSON serialisation */
  contentType?: string;
}

export function toProxyResult(response: HttpResponse): APIGatewayProxyResult {
  const contentType = response.contentType ?? 'application/json';
  return {
    statusCode: response.status,
    headers: { 'Content-Type': contentType, ...response.headers },
    body: typeof response.body === 'string' && response.contentType ? response.body : JSON.stringify(response.body),
  };
}

/** A refusal and headers its answer carries beside the refusal's own (the call's rate-limit window). */
export class RefusalWithHeaders extends Error {
  constructor(
    readonly refusal: ApiError,
    readonly headers: Record<string, string>,
  ) {
    super(refusal.message);
  }
}

/** The error with `headers` added to its answer (headers added earlier, and the refusal's own, win). */
export function withHeaders(error: unknown, headers: Record<string, string>): unknown {
  if (error instanceof RefusalWithHeaders)
    return new RefusalWithHeaders(error.refusal, { ...headers, ...error.headers });
  return error instanceof ApiError ? new RefusalWithHeaders(error, headers) : error;
}
