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
  WEBHOOK_EVENT_TYPES,
} from '../../../client/src/browser.js';
import { FAMILIES as CATALOGUE_FAMILIES, FAMILY_NAMES } from '../../../lambdas/domain/catalogue/catalogue.js';
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

  it("export the service's error types and codes, event types and families, read from the document", () => {
    expect(ERROR_TYPES).toEqual(SERVICE_ERROR_TYPES);
    expect(ERROR_CODES).toEqual(Object.keys(ERROR_TABLE));
    expect(WEBHOOK_EVENT_TYPES).toEqual(SERVICE_EVENT_TYPES);
    expect(FAMILIES).toEqual(CATALOGUE_FAMILIES);
    expect(FAMILY_DESCRIPTIONS).toEqual(FAMILY_NAMES);
  });
});
