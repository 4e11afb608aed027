import { join } from 'node:path';
import { contractServices } from './contract-services';
import { bundleServiceDocument } from './spec-bundler';

const openapiDirectory = join(__dirname, '..', '..', 'openapi');

function collectReferences(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => collectReferences(item, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else collectReferences(value, found);
    }
  }
  return found;
}

describe('spec bundler', () => {
  it.each(contractServices)(
    'makes %s self-contained: every reference resolves locally',
    (service) => {
      const document = bundleServiceDocument(openapiDirectory, service) as {
        components: Record<string, Record<string, unknown>>;
      };
      const references = collectReferences(document);
      expect(references.length).toBeGreaterThan(10);
      for (const reference of references) {
        expect(reference).toMatch(/^#\/components\/(schemas|responses)\//);
        const [, , kind, name] = reference.split('/');
        expect(document.components[kind]?.[name]).toBeDefined();
      }
      expect(Object.keys(document.components.securitySchemes)).toEqual([
        'serviceToken',
        'consumerToken',
      ]);
    },
  );

  it('copies shared schemas, and what they reference, into the document', () => {
    const document = bundleServiceDocument(openapiDirectory, 'scheduler') as {
      components: { schemas: Record<string, unknown> };
    };
    // ReportResult → HealthSignal, LinkItem, FailReason (shared); ErrorBody → FailReason.
    for (const name of ['HealthSignal', 'LinkItem', 'FailReason', 'ErrorBody', 'Verdict']) {
      expect(document.components.schemas).toHaveProperty(name);
    }
    // Only what is referenced: the downloader's page object is not part of the scheduler's document.
    expect(document.components.schemas).not.toHaveProperty('WebPageObject');
  });

  it('is deterministic', () => {
    expect(JSON.stringify(bundleServiceDocument(openapiDirectory, 'sampler'))).toBe(
      JSON.stringify(bundleServiceDocument(openapiDirectory, 'sampler')),
    );
  });
});
