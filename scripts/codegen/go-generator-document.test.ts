import { goGeneratorDocument, typesEmitterDocument } from './go-generator-document';

describe('goGeneratorDocument', () => {
  test('drops variants beside properties, keeps nullable references and leaves the input alone', () => {
    const nullableReference = {
      anyOf: [
        { $ref: '#/components/schemas/Verdict' },
        { type: 'object', nullable: true, enum: [null] },
      ],
    };
    const document = {
      components: {
        schemas: {
          DomainRule: {
            type: 'object',
            properties: {
              verdict: { $ref: '#/components/schemas/Verdict' },
              reason: nullableReference,
            },
            oneOf: [{ title: 'decided' }, { title: 'undetermined' }],
            anyOf: [{ title: 'rendered' }, { title: 'api' }],
          },
          Verdict: { type: 'string', enum: ['csr', 'unknown'] },
          Either: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        },
      },
    };
    const result = goGeneratorDocument(document) as typeof document;
    expect(result.components.schemas.DomainRule).not.toHaveProperty('oneOf');
    expect(result.components.schemas.DomainRule.properties.reason).toEqual(nullableReference);
    expect(result.components.schemas.Either).toEqual(document.components.schemas.Either);
    expect(document.components.schemas.DomainRule).toHaveProperty('oneOf');
    expect(document.components.schemas.DomainRule).toHaveProperty('anyOf');
  });

  test('for openapi-typescript, only the anyOf beside properties goes', () => {
    const document = {
      components: {
        schemas: {
          DomainRule: {
            type: 'object',
            properties: { verdict: { type: 'string' } },
            oneOf: [{ title: 'decided' }, { title: 'undetermined' }],
            anyOf: [{ title: 'rendered' }, { title: 'api' }],
          },
          Either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        },
      },
    };
    const result = typesEmitterDocument(document) as typeof document;
    expect(result.components.schemas.DomainRule).not.toHaveProperty('anyOf');
    expect(result.components.schemas.DomainRule.oneOf).toHaveLength(2);
    expect(result.components.schemas.Either).toEqual(document.components.schemas.Either);
  });
});
