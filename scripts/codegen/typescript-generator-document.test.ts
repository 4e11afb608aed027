import { typescriptGeneratorDocument } from './typescript-generator-document';

describe('typescriptGeneratorDocument', () => {
  test('names the query parameters and body fields that have a default, and only those', () => {
    const document = {
      paths: {
        '/v1/render': {
          post: {
            summary: "Render a page with the sampler's interval",
            requestBody: {
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Render' } } },
            },
          },
        },
        '/v1/rows': {
          get: {
            parameters: [
              { name: 'limit', in: 'query', schema: { type: 'integer', default: 100 } },
              { name: 'after', in: 'query', schema: { type: 'string' } },
              { name: 'id', in: 'path', schema: { type: 'string', default: 'x' } },
            ],
          },
        },
      },
      components: {
        schemas: {
          Render: {
            type: 'object',
            properties: {
              url: { type: 'string' },
              should_store: { type: 'boolean', default: true },
              wait_selector: { type: 'string', nullable: true, default: null },
            },
          },
        },
      },
    };
    const { paths } = typescriptGeneratorDocument(document) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(paths['/v1/render'].post['x-defaulted-body']).toBe("'should_store' | 'wait_selector'");
    expect(paths['/v1/rows'].get['x-defaulted-query']).toBe("'limit'");
    expect(paths['/v1/rows'].get['x-defaulted-body']).toBeUndefined();
    expect(paths['/v1/render'].post['x-comment-summary']).toBe(
      "Render a page with the sampler's interval",
    );
    // The served document stays as it was.
    expect(document.paths['/v1/rows'].get).not.toHaveProperty('x-defaulted-query');
  });
});
