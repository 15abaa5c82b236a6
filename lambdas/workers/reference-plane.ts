import { ocrModel } from '../planes/ocr-model.js';
import { planeFunction } from '../planes/plane-function.js';

/** The reference plane's Lambda (`-c referencePlane=true`): OCR for the endpoints it declares (REFERENCE_PLANE_ENDPOINTS). */
export const handler = planeFunction('reference-inference-plane', ocrModel());
