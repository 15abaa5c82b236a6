import { ApiError } from '../../lambdas/domain/kernel/errors.js';

/** The error code a call fails with (`ok` when it succeeds): what a refusal test compares. */
export async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return 'ok';
  } catch (error) {
    return error instanceof ApiError ? error.code : `unexpected ${String(error)}`;
  }
}
