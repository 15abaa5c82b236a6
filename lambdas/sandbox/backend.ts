import { type InputAsset, type JobRecord, outputObjectKey, type ProducedFile } from '../domain/jobs/job.js';
import type { TestBackend } from '../domain/jobs/processing.js';
import type { WorkOutcome } from '../domain/jobs/settlement.js';
import type { ObjectStore } from '../domain/ports/jobs.js';
import type { Services } from '../domain/ports/services.js';
import { loadSandboxModel, SANDBOX_SLUGS } from './load.js';
import type { InferenceSlug, SandboxFile, SandboxOutput, SandboxRequest } from './types.js';

const FAILURES: Record<string, WorkOutcome & { status: 'failed' }> = {
  model_error: {
    status: 'failed',
    error: {
      type: 'processing_error',
      code: 'model_inference_failed',
      message: 'The model failed to produce a result (test scenario model_error).',
    },
  },
  unreadable_input: {
    status: 'failed',
    error: {
      type: 'invalid_request',
      code: 'unreadable_input',
      message: 'The input could not be decoded (test scenario unreadable_input).',
    },
  },
  upstream_timeout: {
    status: 'failed',
    error: {
      type: 'processing_error',
      code: 'upstream_timeout',
      message: 'An upstream dependency timed out (test scenario upstream_timeout).',
    },
  },
};

/** Results derive from the bytes: the worker hashes uploaded inputs before any sandbox model runs (`withInputHashes`). */
function hashOf(job: Pick<JobRecord, 'id'>, input: InputAsset): string {
  if (input.sha256 === null)
    throw new Error(`input ${input.index} of ${job.id} was not hashed before the sandbox model ran`);
  return input.sha256;
}

/** Runs the endpoint's deterministic sandbox model on the job's inputs and params; null when no sandbox model serves the endpoint. */
export async function runSandboxModel(
  job: Pick<JobRecord, 'id' | 'endpoint' | 'params' | 'inputs'>,
  scenario: SandboxRequest['scenario'] = null,
): Promise<SandboxOutput | null> {
  if (!(SANDBOX_SLUGS as string[]).includes(job.endpoint)) return null;
  const model = await loadSandboxModel(job.endpoint as InferenceSlug);
  return model({
    slug: job.endpoint as InferenceSlug,
    jobId: job.id,
    params: job.params,
    assets: job.inputs.map((input) => ({
      index: input.index,
      filename: input.filename,
      contentType: input.content_type,
      sizeBytes: input.size_bytes,
      sha256: hashOf(job, input),
    })),
    scenario,
  });
}

/** Stores what a sandbox model produced under `outputs/<org>/<job>/<file_key>`. */
export function storeProducedFiles(
  objects: Pick<ObjectStore, 'put' | 'copy'>,
  job: JobRecord,
  produced: Record<string, SandboxFile>,
): Promise<Record<string, ProducedFile>> {
  return storeFiles(objects, { inputs: job.inputs, outputKey: (fileKey) => outputObjectKey(job, fileKey) }, produced);
}

/**
 * Stores what a sandbox model produced, each file under `outputKey(<file_key>)` (a passthrough is a
 * server-side copy of the stored input, so it lives as long as the other outputs).
 */
export async function storeFiles(
  objects: Pick<ObjectStore, 'put' | 'copy'>,
  target: { inputs: readonly InputAsset[]; outputKey: (fileKey: string) => string },
  produced: Record<string, SandboxFile>,
): Promise<Record<string, ProducedFile>> {
  const files: Record<string, ProducedFile> = {};
  await Promise.all(
    Object.entries(produced).map(async ([fileKey, file]) => {
      const objectKey = target.outputKey(fileKey);
      const source =
        file.sourceIndex === undefined ? undefined : target.inputs.find((input) => input.index === file.sourceIndex);
      if (source) {
        await objects.copy(source.object_key, objectKey);
        files[fileKey] = {
          object_key: objectKey,
          content_type: source.content_type,
          size_bytes: source.size_bytes,
          width: null,
          height: null,
        };
        return;
      }
      await objects.put(objectKey, file.bytes, file.contentType);
      files[fileKey] = {
        object_key: objectKey,
        content_type: file.contentType,
        size_bytes: file.bytes.byteLength,
        width: file.width ?? null,
        height: file.height ?? null,
      };
    }),
  );
  return files;
}

/**
 * The test-mode backend: runs the endpoint's deterministic sandbox model, stores the files it
 * produced and reports the outcome, steered by the job's test scenario.
 */
export function sandboxBackend(services: Services): TestBackend {
  return async (job) => {
    const scenario = job.test_scenario;
    if (scenario === 'slow')
      await new Promise((resolve) => setTimeout(resolve, services.config.slowScenarioSeconds * 1000));
    const failure = scenario ? FAILURES[scenario] : undefined;
    if (failure) return failure;
    const output = await runSandboxModel(
      job,
      scenario === 'empty_result' || scenario === 'low_confidence' ? scenario : null,
    );
    if (!output)
      return {
        status: 'failed',
        error: { type: 'internal', code: 'model_inference_failed', message: `No backend serves ${job.endpoint}.` },
      };
    const files = await storeProducedFiles(services.objects, job, output.files);
    return { status: 'succeeded', result: output.result, files, billableUnits: output.billableUnits };
  };
}
