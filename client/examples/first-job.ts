import { createAisClient } from '../src/index.js';

/**
 * Reads a plate: admit the job (an Idempotency-Key is added for you), then wait for it, polling
 * no faster than once a second. `npx tsx client/examples/first-job.ts <base url> <test key> <image>`.
 */
export async function firstJob(baseUrl: string, apiKey: string, image: Blob) {
  const client = createAisClient({ baseUrl, apiKey });
  const job = await client.run('plate.read', { files: { image }, fields: { country: 'DE' } });
  if (job.status !== 'succeeded' || !job.result) throw new Error(`the job ended ${job.status}`);
  // typed: `job.result.plates` is the plate.read result, not a bare object
  return job.result.plates.map((plate) => plate.text);
}

if (process.argv[1] === import.meta.filename) {
  const { readFileSync } = await import('node:fs');
  const [baseUrl = 'http://127.0.0.1:3000', apiKey = '', path = 'car.jpg'] = process.argv.slice(2);
  console.log(await firstJob(baseUrl, apiKey, new Blob([readFileSync(path)], { type: 'image/jpeg' })));
}
