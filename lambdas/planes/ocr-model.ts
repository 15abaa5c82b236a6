import { imageSize } from '../domain/jobs/image-size.js';
import { DocumentReadParams } from '../schemas/params/document-read.js';
import { PlateReadParams } from '../schemas/params/plate-read.js';
import { VinReadParams } from '../schemas/params/vin-read.js';
import { readDocument } from './ocr/document-reading.js';
import { pngCrop } from './ocr/image-crop.js';
import { readPlates } from './ocr/plate-reading.js';
import { TesseractEngine } from './ocr/tesseract-engine.js';
import { readVin } from './ocr/vin-reading.js';
import { modelFailure, type PlaneModel } from './plane-model.js';

/**
 * The reference plane's model (docs/internals/inference-plane.md, "The reference plane"): real OCR with
 * tesseract.js on CPU for the endpoints it declares (REFERENCE_PLANE_ENDPOINTS: `document.read`,
 * `vin.read`, `plate.read`), one engine per process kept between jobs. It reads the job's one
 * image (PNG or JPEG) from the bucket; anything else, or an endpoint it does not declare (the
 * service never sends one), is a failed job.
 */
export function ocrModel(engine: TesseractEngine = new TesseractEngine()): PlaneModel {
  return async (submission, objects, log) => {
    const fail = (reason: string, details: Record<string, unknown> = {}) => {
      log.error(reason, { job_id: submission.job_id, endpoint: submission.endpoint, ...details });
      return modelFailure(submission, submission.model_version);
    };
    const input = submission.inputs[0];
    const image = input ? await objects.get(input.object_key) : null;
    if (!image) return fail('the job has no stored input');
    const size = imageSize(image);
    if (!size) return fail('the input is not a PNG or JPEG image', { content_type: input?.content_type });
    try {
      const result = await (async () => {
        switch (submission.endpoint) {
          case 'plate.read':
            return readPlates(engine, image, size, PlateReadParams.parse(submission.params), async (box, index) => {
              const fileKey = `plate-${index}.png`;
              await objects.put(`${submission.output_prefix}${fileKey}`, pngCrop(image, box), 'image/png');
              return { file_key: fileKey };
            });
          case 'vin.read':
            return readVin(engine, image, size, VinReadParams.parse(submission.params));
          case 'document.read':
            return readDocument(engine, image, size, DocumentReadParams.parse(submission.params));
          default:
            return null;
        }
      })();
      if (!result) return fail('the reference plane does not compute the endpoint');
      return {
        job_id: submission.job_id,
        model_version: submission.model_version,
        status: 'succeeded',
        // one image read: the service's default count for per-image and per-request endpoints
        result,
      };
    } catch (error) {
      return fail('the OCR model failed', { error: String(error) });
    }
  };
}
