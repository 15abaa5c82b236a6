import { FIXTURE_VERSION_SUFFIX } from '../domain/catalogue/catalogue.js';
import { runSandboxModel, storeFiles } from '../sandbox/backend.js';
import { modelFailure, type PlaneModel } from './plane-model.js';

/**
 * The fixture plane's work on a submission: the endpoint's deterministic sandbox model (the test
 * backend's, derived from the inputs' SHA-256), its files written under `output_prefix`. Its
 * `model_version` ends in `-fixture`: it is for wiring tests that need every endpoint live
 * (`-c fixturePlane=true`, `INFERENCE_PLANE=fixture` locally), never a production plane.
 */
export const fixtureModel: PlaneModel = async (submission, objects, log) => {
  const modelVersion = `${submission.model_version}${FIXTURE_VERSION_SUFFIX}`;
  try {
    const output = await runSandboxModel({
      id: submission.job_id,
      endpoint: submission.endpoint,
      params: submission.params,
      inputs: submission.inputs,
    });
    if (!output) {
      log.error('no fixture model serves the endpoint', { job_id: submission.job_id, endpoint: submission.endpoint });
      return modelFailure(submission, modelVersion);
    }
    await storeFiles(
      objects,
      { inputs: submission.inputs, outputKey: (fileKey) => `${submission.output_prefix}${fileKey}` },
      output.files,
    );
    return {
      job_id: submission.job_id,
      model_version: modelVersion,
      status: 'succeeded',
      result: output.result,
      billable_units: output.billableUnits,
    };
  } catch (error) {
    log.error('fixture model failed', { job_id: submission.job_id, error: String(error) });
    return modelFailure(submission, modelVersion);
  }
};
