import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * `engines.node` is a promise to whoever installs the service: the lowest Node version it admits
 * must be one every installed dependency accepts, or the promise is false.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[] }>;
};

describe('engines.node tells the truth', () => {
  const floor = semver.minVersion(pkg.engines.node)!;

  it('is a valid range whose floor is the Lambda runtime major (nodejs22.x)', () => {
    expect(semver.validRange(pkg.engines.node)).not.toBeNull();
    expect(floor.major).toBe(22);
  });

  it('every installed dependency accepts its floor', () => {
    const refusing = Object.entries(lock.packages)
      .filter(([path]) => path !== '' && existsSync(join(ROOT, path)))
      .map(([path, info]) => [path, Array.isArray(info.engines) ? undefined : info.engines?.node] as const)
      .filter(
        ([, range]) => range !== undefined && semver.validRange(range) !== null && !semver.satisfies(floor, range!),
      )
      .map(([path, range]) => `${path} wants ${range}`);
    expect(refusing).toEqual([]);
  });
});
