import type { Services } from '../ports/services.js';
import type { JobRecord } from './job.js';

/**
 * Fills the SHA-256 of inputs that arrived by upload reference. Admission does not read an
 * upload back (it may be 500 MB); the worker does, once, before the bytes matter: the test
 * backend derives its result from them and the inference plane is told them. So the same bytes
 * give the same result whether they came as multipart or as an `input_ref`.
 */
export async function withInputHashes(services: Services, job: JobRecord): Promise<JobRecord> {
  if (job.inputs.every((input) => input.sha256 !== null)) return job;
  const inputs = await Promise.all(
    job.inputs.map(async (input) => {
      if (input.sha256 !== null) return input;
      const sha256 = await services.objects.sha256(input.object_key);
      if (sha256 === null) throw new Error(`input ${input.index} of ${job.id} is missing from the object store`);
      return { ...input, sha256 };
    }),
  );
  return { ...job, inputs };
}
