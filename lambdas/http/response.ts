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

/** The error with `headers` added to its answer (an error's own headers win). */
export function withHeaders(error: unknown, headers: Record<string, string>): unknown {
  return error instanceof ApiError
    ? new ApiError(error.code, error.param, error.message, { ...headers, ...error.headers })
    : error;
}
