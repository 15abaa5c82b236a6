import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { containerFromEnvironment, type Container } from '../container.js';
import type { HttpHandler } from './handler.js';

/** A Lambda export that builds its handler once per cold start from the stack's environment. */
export function lambdaEntry(build: (container: Container) => HttpHandler): HttpHandler {
  let built: HttpHandler | undefined;
  return (event: APIGatewayProxyEvent, context: Context) => {
    built ??= build(containerFromEnvironment());
    return built(event, context);
  };
}
