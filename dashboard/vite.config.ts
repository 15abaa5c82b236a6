import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/** The dashboard SPA, served under /dashboard by the local runtime and by CloudFront on AWS. */
export default defineConfig({
  root: import.meta.dirname,
  base: '/dashboard/',
  logLevel: 'warn',
  build: {
    outDir: resolve(import.meta.dirname, '../dist/dashboard'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 400,
    // Rolldown warns when plugins took a large share of a build: on a busy machine that is load, not a
    // problem, and `cdk synth --quiet` (which builds the dashboard) should print only problems
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
});
