import { Logger } from '@aws-lambda-powertools/logger';
import type { Log } from '../domain/ports/services.js';

export function createLog(serviceName = 'automotive-inference', level: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT' = 'INFO'): Log {
  const logger = new Logger({ serviceName, logLevel: level });
  return {
    info: (message, extra) => logger.info(message, extra ?? {}),
    warn: (message, extra) => logger.warn(message, extra ?? {}),
    error: (message, extra) => logger.error(message, extra ?? {}),
  };
}
