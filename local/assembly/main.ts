import '../quiet-warnings.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { logLevelFromEnvironment } from '../../lambdas/adapters/logger.js';
import { newCallbackSecret } from '../../lambdas/domain/kernel/signatures.js';
import { SIGNING_KEY_FILENAME } from '../local-issuer.js';
import { startDynamoDbLocal } from '../stand-ins/dynamodb-local.js';
import { startObjectAndQueueServer } from '../stand-ins/object-and-queue-server.js';
import {
  announce,
  failStart,
  LOCAL_DIR,
  prepareLocalStart,
  seedCredentials,
  stopOnSignals,
  storedCredentials,
} from '../start-conventions.js';
import { startAssemblyRuntime } from './runtime.js';
import { isCurrent, synthesise } from './synth.js';

/**
 * `npm run start:assembly [-- --assembly <dir>] [--synth] [--reset]`: the service from the
 * synthesised cloud assembly (what `cdk deploy` uploads) instead of the TypeScript sources, with
 * `npm start`'s conventions. Without `--assembly`, `cdk.out` is synthesised first when it is
 * missing or older than the sources (or with `--synth`).
 */
async function main(): Promise<void> {
  const started = Date.now();
  const { values } = parseArgs({
    options: { assembly: { type: 'string' }, synth: { type: 'boolean' }, reset: { type: 'boolean' } },
    strict: true,
  });
  const { port, objectsPort } = await prepareLocalStart('npm run start:assembly');
  const assemblyDirectory = resolve(values.assembly ?? 'cdk.out');
  if (values.assembly && !existsSync(join(assemblyDirectory, 'manifest.json')))
    throw new Error(`${values.assembly} holds no cloud assembly (no manifest.json)`);
  if (!values.assembly && (values.synth || !isCurrent(assemblyDirectory))) {
    console.log(`Synthesising ${assemblyDirectory} …`);
    const synthStarted = Date.now();
    await synthesise(assemblyDirectory);
    console.log(`Synthesised in ${((Date.now() - synthStarted) / 1000).toFixed(1)} s`);
  }
  const inferenceCallbackSecret = storedCredentials()?.inference_callback_secret ?? newCallbackSecret();
  const secretsFile = join(LOCAL_DIR, 'assembly-secrets.json');
  const secretValues = existsSync(secretsFile)
    ? (JSON.parse(readFileSync(secretsFile, 'utf8')) as Record<string, string>)
    : {};

  const runtimeStarted = Date.now();
  const dynamodb = await startDynamoDbLocal({ dataDir: join(LOCAL_DIR, 'dynamodb') });
  const objectsAndQueues = await startObjectAndQueueServer({ port: objectsPort, dataDir: join(LOCAL_DIR, 's3') });
  const runtime = await startAssemblyRuntime({
    assemblyDirectory,
    port,
    standIns: { dynamodb: dynamodb.endpoint, s3: objectsAndQueues.endpoint, sqs: objectsAndQueues.endpoint },
    queueTransport: objectsAndQueues.queues,
    inferenceCallbackSecret,
    secretValues,
    signingKeyFile: join(LOCAL_DIR, SIGNING_KEY_FILENAME),
    logLevel: logLevelFromEnvironment('INFO'),
  });
  writeFileSync(secretsFile, `${JSON.stringify(secretValues, null, 2)}\n`, { mode: 0o600 });
  const credentials = await seedCredentials(
    runtime.services,
    runtime.issuer,
    runtime.baseUrl,
    inferenceCallbackSecret,
    {
      dynamodb: dynamodb.endpoint,
      s3: objectsAndQueues.endpoint,
      table: runtime.services.infrastructure.tableName,
      bucket: runtime.services.infrastructure.bucketName,
    },
  );
  writeFileSync(join(LOCAL_DIR, 'outputs.json'), `${JSON.stringify(runtime.outputs, null, 2)}\n`);
  console.log(`Stack outputs, local (also in ${join(LOCAL_DIR, 'outputs.json')}): ${JSON.stringify(runtime.outputs)}`);
  for (const note of runtime.notes) console.log(`Note: ${note}`);
  console.log(
    `Runtime started in ${((Date.now() - runtimeStarted) / 1000).toFixed(1)} s (stand-ins, provisioning, front door)`,
  );
  announce(`Automotive Inference Service (cloud assembly ${assemblyDirectory})`, credentials, started);
  stopOnSignals(async () => {
    await runtime.stop().catch(() => undefined);
    await objectsAndQueues.stop().catch(() => undefined);
    await dynamodb.stop();
  });
}

main().catch(failStart);
