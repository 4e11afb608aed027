import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { normalizeOpenApiSchema } from '../../services/common/contract-runtime/json-schema-normalizer';
import { contractServices } from './contract-services';
import { bundleServiceDocument } from './spec-bundler';
import { join } from 'node:path';

type Schema = Record<string, unknown>;
interface Document {
  paths: Record<
    string,
    Record<string, { parameters?: Array<{ name: string; schema: Schema; example?: unknown }> }>
  >;
  components: { schemas: Record<string, Schema> };
}

describe.each(contractServices)('examples of the %s document', (service) => {
  const document = bundleServiceDocument(
    join(__dirname, '..', '..', 'openapi'),
    service,
  ) as unknown as Document;
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema({
    $id: 'contract',
    definitions: Object.fromEntries(
      Object.entries(document.components.schemas).map(([name, schema]) => [
        name,
        normalizeOpenApiSchema(schema, 'contract'),
      ]),
    ),
  });

  it.each(Object.keys(document.components.schemas))(
    'schema %s has an example that it accepts',
    (name) => {
      const schema = document.components.schemas[name];
      expect(schema).toHaveProperty('example');
      const validate = ajv.compile({ $ref: `contract#/definitions/${name}` });
      const isValid = validate(schema.example);
      expect(validate.errors ?? []).toEqual([]);
      expect(isValid).toBe(true);
    },
  );

  it('has an accepted example on every parameter', () => {
    for (const methods of Object.values(document.paths)) {
      for (const operation of Object.values(methods)) {
        for (const parameter of operation.parameters ?? []) {
          expect({ parameter: parameter.name, example: parameter.example }).toEqual(
            expect.objectContaining({ example: expect.anything() }),
          );
          expect(
            ajv.validate(
              normalizeOpenApiSchema(parameter.schema, 'contract') as Schema,
              parameter.example,
            ),
          ).toBe(true);
        }
      }
    }
  });

  it('never forbids unknown fields (receivers tolerate them)', () => {
    expect(JSON.stringify(document)).not.toContain('"additionalProperties":false');
  });
});
