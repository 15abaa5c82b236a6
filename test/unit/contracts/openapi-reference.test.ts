import { describe, expect, it } from 'vitest';
import { servedOpenApiDocument } from '../../../lambdas/http/openapi-document.js';

// What the API reference (/docs/reference) shows a caller first: each family's menu entry says what it
// does, the licence is the product's, and the document stays small enough to load fast (docs/internals/testing.md).
const document = servedOpenApiDocument() as {
  info: { license: { name: string; identifier?: string } };
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, { responses: Record<string, { $ref?: string; description?: string }> }>>;
  components: {
    schemas: Record<string, unknown>;
    responses: Record<string, unknown>;
    parameters: Record<string, unknown>;
  };
};

describe('the OpenAPI document, as the reference shows it', () => {
  it('describes every tag by what its routes do, never by repeating its name', () => {
    expect(document.tags.length).toBeGreaterThan(8);
    for (const tag of document.tags) {
      expect(tag.description, tag.name).not.toBe(tag.name);
      expect(tag.description.length, tag.name).toBeGreaterThan(60);
    }
    const family = document.tags.find((tag) => tag.name.startsWith('A '))!;
    expect(family.description).toContain('Licence plate reading');
  });

  it("names the product's licence, not an SPDX placeholder", () => {
    expect(document.info.license.identifier).toBeUndefined();
    expect(document.info.license.name).toContain('Automotive Inference');
  });

  it('shares its answers, parameters and sub-schemas by $ref instead of repeating them, which keeps it under 300 KB', () => {
    const size = Buffer.byteLength(JSON.stringify(document));
    // 657 KB with every answer and parameter inline, 365 KB with them shared; under 300 KB with the job
    // envelope written once and the error answers shared by their codes (docs/internals/testing.md)
    expect(size).toBeLessThan(300 * 1024);
    expect(Object.keys(document.components.responses).length).toBeGreaterThan(5);
    expect(Object.keys(document.components.parameters).length).toBeGreaterThan(2);
  });

  it("writes the job envelope once: each endpoint's job is `Job` with its own result", () => {
    const plateJob = document.components.schemas.PlateReadJob as { allOf: Array<Record<string, unknown>> };
    expect(plateJob.allOf[0]).toEqual({ $ref: '#/components/schemas/Job' });
    expect(plateJob.allOf[1]).toMatchObject({
      properties: { result: { anyOf: [{ $ref: '#/components/schemas/PlateReadResult' }, { type: 'null' }] } },
      required: ['result'],
    });
    const envelopes = Object.values(document.components.schemas).filter(
      (schema) => JSON.stringify(schema).includes('"livemode"') && JSON.stringify(schema).includes('"model_version"'),
    );
    expect(envelopes.length).toBeLessThanOrEqual(2); // Job, and the dashboard's view of a job
  });

  it('shares an error answer among the operations that answer with the same codes', () => {
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    const unauthorized = operations
      .map((operation) => operation.responses['401'])
      .filter((answer) => answer?.description === undefined && answer?.$ref === '#/components/responses/Error401');
    expect(unauthorized.length).toBeGreaterThan(50);
    expect((document.components.responses.Error401 as { description: string }).description).toBe(
      'error codes: invalid_api_key',
    );
  });
});
