import type { OpenApiDocument } from './openapi-document';
import { ContractFieldPicker } from './contract-field-picker';

const document: OpenApiDocument = {
  openapi: '3.0.3',
  info: { title: 'picker test', version: '1' },
  paths: {},
  components: {
    schemas: {
      Request: {
        type: 'object',
        properties: {
          item_list: { type: 'array', items: { $ref: '#/components/schemas/Item' } },
          note: { type: 'string' },
        },
      },
      Item: {
        type: 'object',
        properties: {
          url: { type: 'string' },
          signal: { allOf: [{ $ref: '#/components/schemas/Signal' }], nullable: true },
          health: {
            anyOf: [
              { $ref: '#/components/schemas/Signal' },
              { type: 'object', nullable: true, enum: [null] },
            ],
          },
          anchor_list: { type: 'array', items: { type: 'string' } },
        },
      },
      Signal: { type: 'object', properties: { error_count: { type: 'integer' } } },
    },
  },
};

describe('ContractFieldPicker', () => {
  const pickRequest = new ContractFieldPicker(document).picker<Record<string, unknown>>('Request');

  it('keeps the declared fields at every depth and drops the rest', () => {
    const picked = pickRequest({
      note: 'n',
      Extra: 1,
      item_list: [
        {
          url: 'https://a.example/',
          extra_field: 2,
          signal: { error_count: 3, Colour: 'red' },
          anchor_list: ['x'],
        },
        { url: 'https://b.example/', signal: null, health: { error_count: 4, Extra: true } },
        { url: 'https://c.example/', health: null },
      ],
    });
    expect(picked).toEqual({
      note: 'n',
      item_list: [
        { url: 'https://a.example/', signal: { error_count: 3 }, anchor_list: ['x'] },
        { url: 'https://b.example/', signal: null, health: { error_count: 4 } },
        { url: 'https://c.example/', health: null },
      ],
    });
  });

  it('returns a value carrying nothing undeclared as it is, and never changes its input', () => {
    const clean = {
      note: 'n',
      item_list: [{ url: 'https://a.example/', signal: { error_count: 1 }, anchor_list: ['x'] }],
    };
    expect(pickRequest(clean)).toBe(clean);

    const untouched = { url: 'https://b.example/' };
    const deep = {
      item_list: [
        untouched,
        { url: 'https://c.example/', signal: { error_count: 2, Colour: 'red' } },
      ],
    };
    const before = structuredClone(deep);
    const picked = pickRequest(deep) as typeof deep;
    expect(deep).toEqual(before);
    expect(picked).not.toBe(deep);
    expect(picked.item_list[0]).toBe(untouched);
    expect(picked.item_list[1]).toEqual({ url: 'https://c.example/', signal: { error_count: 2 } });
  });

  it('leaves absent fields absent and refuses a schema the document does not have', () => {
    expect(pickRequest({ item_list: [] })).toEqual({ item_list: [] });
    expect(() => new ContractFieldPicker(document).picker('Missing')).toThrow(/no schema Missing/);
  });
});
