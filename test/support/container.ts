import type { Infrastructure } from '../../lambdas/composition/container.js';

/** What the composition root needs to build clients and adapters without reaching anything: endpoints that are never called. */
export function offlineInfrastructure(credentials = { accessKeyId: 'test', secretAccessKey: 'test' }): Infrastructure {
  return {
    region: 'eu-central-1',
    tableName: 'ais',
    bucketName: 'ais-files',
    workQueueUrl: 'http://127.0.0.1:4566/000000000000/work',
    webhookQueueUrl: 'http://127.0.0.1:4566/000000000000/webhooks',
    endpoints: { dynamodb: 'http://127.0.0.1:4566', s3: 'http://127.0.0.1:4566', sqs: 'http://127.0.0.1:4566' },
    credentials,
  };
}
