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
  prepareLocalStart,
  StartRefused,
  seedCredentials,
  stopOnSignals,
  storedCredentials,
} from '../start-conventions.js';
import { startAssemblyRuntime } from './runtime.js';
import { staleness, synthesise } from './synth.js';

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
  const { port, objectsPort, home } = await prepareLocalStart('npm run start:assembly', 'assembly');
  const assemblyDirectory = resolve(values.assembly ?? 'cdk.out');
  // cdk.out is rebuilt when it cannot be run as it is; an assembly named with --assembly is refused instead
  const stale = values.synth ? 'asked to with --synth' : staleness(assemblyDirectory);
  if (stale && values.assembly && !values.synth)
    throw new StartRefused(
      `Refusing ${values.assembly}: ${stale}. Rebuild it with npm run start:assembly -- --synth --assembly ${values.assembly}, or leave out --assembly to use cdk.out.`,
    );
  if (stale) {
    console.log(`Synthesising ${assemblyDirectory} with the local switches: ${stale} …`);
    const synthStarted = Date.now();
    await synthesise(assemblyDirectory);
    console.log(`Synthesised in ${((Date.now() - synthStarted) / 1000).toFixed(1)} s`);
  }
  const inferenceCallbackSecret = storedCredentials(home)?.inference_callback_secret ?? newCallbackSecret();
  const secretsFile = join(home, 'assembly-secrets.json');
  const secretValues = existsSync(secretsFile)
    ? (JSON.parse(readFileSync(secretsFile, 'utf8')) as Record<string, string>)
    : {};

  const runtimeStarted = Date.now();
  const dynamodb = await startDynamoDbLocal({ dataDir: join(home, 'dynamodb') });
  const objectsAndQueues = await startObjectAndQueueServer({ port: objectsPort, dataDir: join(home, 's3') });
  const runtime = await startAssemblyRuntime({
    assemblyDirectory,
    port,
    standIns: { dynamodb: dynamodb.endpoint, s3: objectsAndQueues.endpoint, sqs: objectsAndQueues.endpoint },
    queueTransport: objectsAndQueues.queues,
    inferenceCallbackSecret,
    secretValues,
    signingKeyFile: join(home, SIGNING_KEY_FILENAME),
    logLevel: logLevelFromEnvironment('INFO'),
  });
  writeFileSync(secretsFile, `${JSON.stringify(secretValues, null, 2)}\n`, { mode: 0o600 });
  const credentials = await seedCredentials(
    home,
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
  writeFileSync(join(home, 'outputs.json'), `${JSON.stringify(runtime.outputs, null, 2)}\n`);
  console.log(`Stack outputs, local (also in ${join(home, 'outputs.json')}): ${JSON.stringify(runtime.outputs)}`);
  for (const note of runtime.notes) console.log(`Note: ${note}`);
  console.log(
    `Runtime started in ${((Date.now() - runtimeStarted) / 1000).toFixed(1)} s (stand-ins, provisioning, front door)`,
  );
  announce(`Automotive Inference Service (cloud assembly ${assemblyDirectory})`, credentials, started);
  stopOnSignals('assembly', async () => {
    await runtime.stop().catch(() => undefined);
    await objectsAndQueues.stop().catch(() => undefined);
    await dynamodb.stop();
  });
}

main().catch(failStart);
