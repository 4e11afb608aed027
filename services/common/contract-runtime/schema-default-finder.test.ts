import downloaderDocument from '../../../generated/downloader/openapi.json';
import schedulerDocument from '../../../generated/scheduler/openapi.json';
import { declaresDefault } from './schema-default-finder';
import type { JsonSchema } from './openapi-document';

const definitions: Record<string, JsonSchema> = {
  Plain: { type: 'object', properties: { name: { type: 'string' } } },
  Defaulted: { type: 'object', properties: { count: { type: 'integer', default: 1 } } },
  Loop: { type: 'object', properties: { next: { $ref: '#/definitions/Loop' } } },
};
const resolve = (reference: string): JsonSchema | undefined =>
  definitions[reference.replace('#/definitions/', '')];

describe('declaresDefault', () => {
  it('finds none in a schema without defaults, references and loops included', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        plain: { $ref: '#/definitions/Plain' },
        list: { type: 'array', items: { $ref: '#/definitions/Loop' } },
      },
    };
    expect(declaresDefault(schema, resolve)).toBe(false);
  });

  it('finds a default behind a reference, in items or in a branch', () => {
    const behindReference: JsonSchema = { items: { $ref: '#/definitions/Defaulted' } };
    const inBranch: JsonSchema = { oneOf: [{ type: 'null' }, { type: 'string', default: 'x' }] };
    expect(declaresDefault(behindReference, resolve)).toBe(true);
    expect(declaresDefault(inBranch, resolve)).toBe(true);
  });

  it('counts a reference it cannot resolve as a possible default', () => {
    expect(declaresDefault({ $ref: '#/definitions/Missing' }, resolve)).toBe(true);
  });

  it("tells the contract's bodies apart: a report fills in nothing, a render request does", () => {
    const resolverOf =
      (document: { components: { schemas: Record<string, unknown> } }) => (reference: string) =>
        document.components.schemas[reference.replace('#/components/schemas/', '')] as
          JsonSchema | undefined;
    const report = { $ref: '#/components/schemas/ReportRequest' };
    const render = { $ref: '#/components/schemas/RenderRequest' };
    expect(declaresDefault(report, resolverOf(schedulerDocument))).toBe(false);
    expect(declaresDefault(render, resolverOf(downloaderDocument))).toBe(true);
  });
});
