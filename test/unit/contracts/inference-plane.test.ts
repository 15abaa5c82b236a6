import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { submissionOf } from '../../../lambdas/adapters/http-inference-plane.js';
import { createLog } from '../../../lambdas/adapters/logger.js';
import type { JobRecord } from '../../../lambdas/domain/jobs/job.js';
import { timeOrderedId } from '../../../lambdas/domain/kernel/ids.js';
import { fixtureModel } from '../../../lambdas/planes/fixture-model.js';
import { CompletionCallbackSchema } from '../../../lambdas/schemas/completions.js';
import { InferenceSubmissionSchema } from '../../../lambdas/schemas/inference-plane.js';
import { buildInferencePlaneDocument } from '../../../site/inference-plane-openapi.js';

/**
 * docs/internals/inference-plane.openapi.json is what an ML team builds a plane against. It is generated
 * from the schemas the service's code uses and must never drift from them: regenerate it with
 * `WRITE_OPENAPI=1 npx vitest run test/unit/contracts/inference-plane.test.ts`.
 */
const FILE = new URL('../../../docs/internals/inference-plane.openapi.json', import.meta.url);

function liveJob(overrides: Partial<JobRecord> = {}): JobRecord {
  const id = timeOrderedId('job', Date.now());
  const bytes = Buffer.from('a plate');
  return {
    id,
    org_id: 'org_7Kc2GdQx1bWm9pRs4TvYz8',
    livemode: true,
    endpoint: 'plate.read',
    params: {},
    inputs: [
      {
        index: 0,
        filename: 'car.jpg',
        content_type: 'image/jpeg',
        size_bytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        object_key: `inputs/org_7Kc2GdQx1bWm9pRs4TvYz8/${id}/0`,
      },
    ],
    ...overrides,
  } as JobRecord;
}

describe('the inference plane contract', () => {
  it('is stored byte for byte as the schemas the code uses generate it', () => {
    const generated = `${JSON.stringify(buildInferencePlaneDocument(), null, 2)}\n`;
    if (process.env.WRITE_OPENAPI === '1') writeFileSync(FILE, generated);
    expect(
      readFileSync(FILE, 'utf8'),
      'stale: regenerate with WRITE_OPENAPI=1 npx vitest run test/unit/contracts/inference-plane.test.ts',
    ).toBe(generated);
  });

  it('is an OpenAPI 3.1 document a maintained validator accepts, with the submission and its completion callback', async () => {
    const document = buildInferencePlaneDocument() as any;
    const result = await new Validator().validate(document);
    expect(result.valid, JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toBe(true);
    const submit = document.paths['/'].post;
    expect(submit.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/InferenceSubmission');
    const callback = submit.callbacks.completion['{$request.body#/callback_url}'].post;
    expect(callback.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/CompletionCallback',
    );
    expect(Object.keys(callback.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404', '409']));
    for (const operation of [submit, callback])
      expect(operation.parameters[0]).toMatchObject({ name: 'X-Inference-Signature', in: 'header', required: true });
  });

  it('describes what the HTTP adapter really sends: a submission it builds parses with the documented schema', () => {
    const job = liveJob();
    const submission = submissionOf(job, {
      bucket: 'objects',
      callbackUrl: 'https://api.example.com/prod/internal/v1/completions',
    });
    expect(InferenceSubmissionSchema.parse(JSON.parse(JSON.stringify(submission)))).toEqual(submission);
    expect(submission.output_prefix).toBe(`outputs/${job.org_id}/${job.id}/`);
  });

  it('describes what the fixture plane really reports: its callbacks parse with the documented schema, files written under output_prefix', async () => {
    const written: string[] = [];
    const objects = {
      get: async () => null,
      put: async (key: string) => void written.push(key),
      copy: async (_from: string, to: string) => void written.push(to),
    };
    const log = createLog('plane-contract-test', 'SILENT');
    for (const endpoint of ['plate.read', 'vehicle.segment', 'damage.detect'] as const) {
      const submission = submissionOf(liveJob({ endpoint }), {
        bucket: 'objects',
        callbackUrl: 'https://api.example.com/internal/v1/completions',
      });
      const completion = await fixtureModel(submission, objects, log);
      expect(CompletionCallbackSchema.parse(completion), endpoint).toMatchObject({
        job_id: submission.job_id,
        status: 'succeeded',
      });
    }
    expect(written.length).toBeGreaterThan(0);
    for (const key of written) expect(key).toMatch(/^outputs\/org_7Kc2GdQx1bWm9pRs4TvYz8\/job_\w+\/[\w.-]+$/);
  });
});
