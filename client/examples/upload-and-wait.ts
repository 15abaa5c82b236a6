import { AisError, createAisClient } from '../src/index.js';

/**
 * A video through a presigned upload in one call, then a job on the reference; a refused call is
 * an `AisError` whose `kind()` falls back to the error type for a code this program does not know.
 */
export async function onboardVideo(baseUrl: string, apiKey: string, video: Blob) {
  const client = createAisClient({ baseUrl, apiKey });
  const ref = await client.upload(video, 'video/mp4', 'walkaround.mp4');
  const job = await client.run('video.onboard', { json: { input_ref: ref } });
  try {
    await client.createJob('video.onboard', { json: { input_ref: ref } });
  } catch (error) {
    if (error instanceof AisError) return { job, reuse: error.kind(['upload_not_found']) };
    throw error;
  }
  return { job, reuse: 'accepted' };
}

if (process.argv[1] === import.meta.filename) {
  const { readFileSync } = await import('node:fs');
  const [baseUrl = 'http://127.0.0.1:3000', apiKey = '', path = 'walkaround.mp4'] = process.argv.slice(2);
  const { job, reuse } = await onboardVideo(baseUrl, apiKey, new Blob([readFileSync(path)], { type: 'video/mp4' }));
  console.log(JSON.stringify({ id: job.id, status: job.status, reuse }));
}
