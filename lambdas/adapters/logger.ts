import { Logger } from '@aws-lambda-powertools/logger';
import type { Log } from '../domain/ports/services.js';

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';

/** `LOG_LEVEL` sets the threshold (docs/internals/operations.md, "Logs"); INFO by default. */
export function logLevelFromEnvironment(fallback: LogLevel = 'INFO'): LogLevel {
  const level = process.env.LOG_LEVEL?.toUpperCase();
  return level === 'DEBUG' || level === 'INFO' || level === 'WARN' || level === 'ERROR' || level === 'SILENT'
    ? level
    : fallback;
}

/** One JSON line per call on stdout (Powertools Logger), on AWS and on `npm start` alike. */
export function createLog(serviceName = 'automotive-inference', level: LogLevel = logLevelFromEnvironment()): Log {
  const logger = new Logger({ serviceName, logLevel: level });
  return {
    info: (message, extra) => logger.info(message, extra ?? {}),
    warn: (message, extra) => logger.warn(message, extra ?? {}),
    error: (message, extra) => logger.error(message, extra ?? {}),
  };
}
