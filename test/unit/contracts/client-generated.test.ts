import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  API_VERSION_FILE,
  ENUMS_FILE,
  GENERATED_FILE,
  generatedApiVersion,
  generatedEnums,
  generatedTypes,
} from '../../../client/scripts/generate.js';
import {
  ERROR_CODES,
  ERROR_TYPES,
  FAMILIES,
  FAMILY_DESCRIPTIONS,
  JOB_ERROR_CODES,
  WEBHOOK_EVENT_TYPES,
} from '../../../client/src/browser.js';
import { FAMILIES as CATALOGUE_FAMILIES, FAMILY_NAMES } from '../../../lambdas/domain/catalogue/catalogue.js';
import { JOB_ERROR_CODE_LIST } from '../../../lambdas/domain/jobs/job-errors.js';
import {
  ERROR_CODES as ERROR_TABLE,
  ERROR_TYPES as SERVICE_ERROR_TYPES,
} from '../../../lambdas/domain/kernel/errors.js';
import { WEBHOOK_EVENT_TYPES as SERVICE_EVENT_TYPES } from '../../../lambdas/domain/webhooks/records.js';

const stale = 'stale: regenerate with npm run client:generate';

describe("the typed client's generated files (npm run client:generate)", () => {
  it('are those of the current OpenAPI document', async () => {
    expect(readFileSync(GENERATED_FILE, 'utf8'), stale).toBe(await generatedTypes());
    expect(readFileSync(API_VERSION_FILE, 'utf8'), stale).toBe(generatedApiVersion());
    expect(readFileSync(ENUMS_FILE, 'utf8'), stale).toBe(generatedEnums());
  });

  it("export the service's error types and codes (a job's codes among them), event types and families, read from the document", () => {
    expect(ERROR_TYPES).toEqual(SERVICE_ERROR_TYPES);
    // the codes of error answers, then those a failed job carries that no answer does
    expect(ERROR_CODES).toEqual([...new Set([...Object.keys(ERROR_TABLE), ...JOB_ERROR_CODE_LIST])]);
    expect(JOB_ERROR_CODES).toEqual(JOB_ERROR_CODE_LIST);
    expect(WEBHOOK_EVENT_TYPES).toEqual(SERVICE_EVENT_TYPES);
    expect(FAMILIES).toEqual(CATALOGUE_FAMILIES);
    expect(FAMILY_DESCRIPTIONS).toEqual(FAMILY_NAMES);
  });
});
