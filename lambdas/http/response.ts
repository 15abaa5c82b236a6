import type { APIGatewayProxyResult } from 'aws-lambda';

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
