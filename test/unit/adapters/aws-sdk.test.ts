import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import * as dynamodbByImport from '@aws-sdk/client-dynamodb';
import * as documentByImport from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentSdk, dynamodbSdk, s3Sdk, sfnSdk, sqsSdk } from '../../../lambdas/adapters/aws-sdk.js';

const LAMBDAS = resolve(import.meta.dirname, '../../../lambdas');

/** Read once per five minutes, and mocked as an ES module by its unit test (docs/internals/architecture.md). */
const IMPORTED_ON_PURPOSE = new Set(['adapters/runtime-secrets.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('Lambda code loads the AWS SDK with require (lambdas/adapters/aws-sdk.ts)', () => {
  it('no module that can reach a Lambda bundle value-imports an @aws-sdk package', () => {
    const offenders = sourceFiles(LAMBDAS)
      .map((file) => relative(LAMBDAS, file))
      // the local runtime and its stand-ins never ship to Lambda
      .filter((file) => !file.startsWith('local/') && !IMPORTED_ON_PURPOSE.has(file))
      .flatMap((file) => {
        const source = readFileSync(join(LAMBDAS, file), 'utf8');
        const staticValueImports = [...source.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'(@aws-sdk\/[^']+)'/gm)].map(
          (match) => match[1],
        );
        const dynamicImports = [...source.matchAll(/\bimport\(\s*'(@aws-sdk\/[^']+)'\s*\)/g)]
          .filter((match) => !/typeof\s+$/.test(source.slice(0, match.index)))
          .map((match) => match[1]);
        return [...staticValueImports, ...dynamicImports].map((name) => `${file}: ${name}`);
      });
    expect(offenders).toEqual([]);
  });

  it('hands out the very classes an ES import gets, so instanceof on SDK errors holds either way', () => {
    expect(dynamodbSdk.DynamoDBClient).toBe(dynamodbByImport.DynamoDBClient);
    expect(dynamodbSdk.ConditionalCheckFailedException).toBe(dynamodbByImport.ConditionalCheckFailedException);
    expect(documentSdk.TransactWriteCommand).toBe(documentByImport.TransactWriteCommand);
    expect(typeof s3Sdk().PutObjectCommand).toBe('function');
    expect(typeof sqsSdk().SendMessageCommand).toBe('function');
    expect(typeof sfnSdk().StartExecutionCommand).toBe('function');
  });
});
