import type { APIGatewayProxyResult } from 'aws-lambda';
import { ApiError, errorEnvelope } from '../../domain/kernel/errors.js';
import { logFailure } from '../../domain/kernel/failure-log.js';
import type { Log } from '../../domain/ports/services.js';
import { RefusalWithHeaders } from '../response.js';
import { retryHeaders } from '../retry-headers.js';
import { API_SECURITY_HEADERS } from '../security-headers.js';

/** Turns any thrown value into the error envelope (docs/internals/jobs-and-credits.md, "Errors"); unexpected faults leak nothing. */
export function errorResult(thrown: unknown, requestId: string, docsUrl: string, log: Log): APIGatewayProxyResult {
  const [error, headers] = thrown instanceof RefusalWithHeaders ? [thrown.refusal, thrown.headers] : [thrown, {}];
  if (error instanceof ApiError) {
    return {
      statusCode: error.status,
      headers: {
        ...API_SECURITY_HEADERS,
        'Content-Type': 'application/json',
        'Request-Id': requestId,
        ...headers,
        ...retryHeaders(error.retry),
      },
      body: JSON.stringify(errorEnvelope(error.code, requestId, docsUrl, error.param, error.message)),
    };
  }
  logFailure(log, 'unhandled error', error, { request_id: requestId });
  return {
    statusCode: 500,
    headers: { ...API_SECURITY_HEADERS, 'Content-Type': 'application/json', 'Request-Id': requestId },
    body: JSON.stringify(errorEnvelope('internal_error', requestId, docsUrl)),
  };
}
