import { resolve } from 'node:path';
import { writeDocsSite } from './write.js';

/** `npm run docs:build [-- <server url>]`: writes the documentation site to dist/docs, ready for S3. */
const out = resolve('dist', 'docs');
writeDocsSite(out, process.argv[2] ?? 'https://api.automotive-inference.example/prod');
console.log(`documentation written to ${out}`);
