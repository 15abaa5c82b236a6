import { describe, expect, it } from 'vitest';
import { repositoryTexts } from '../../support/repository-files.js';

/** Facts the code states in one place; a second spelling drifts from the first (docs/internals/architecture.md). */
describe('facts stated once', () => {
  const sources = repositoryTexts((path) => /^(lambdas|lib|local|tools|bin)\/.*\.ts$/.test(path));

  it('a livemode flag becomes the word live or test only in modeOf', () => {
    const spelled = sources.filter(({ text }) => /\?\s*'live'\s*:\s*'test'/.test(text)).map(({ path }) => path);
    expect(spelled).toEqual(['lambdas/domain/kernel/mode.ts']);
  });

  it('the upload_not_found refusal is worded in one module', () => {
    const wording = sources
      .filter(({ text }) => /new ApiError\(\s*'upload_not_found'/.test(text))
      .map(({ path }) => path);
    expect(wording).toEqual(['lambdas/domain/jobs/uploads.ts']);
  });
});
