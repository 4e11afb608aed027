import { existsSync } from 'node:fs';
import path from 'node:path';
import { PROTO_DIRECTORY_ENV, resolveProtoDirectory } from './proto-directory';

const SOURCE_PROTO_DIR = path.resolve(__dirname, '..', 'proto');
const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..', '..');

describe('resolveProtoDirectory', () => {
  const saved = process.env[PROTO_DIRECTORY_ENV];
  afterEach(() => {
    if (saved === undefined) delete process.env[PROTO_DIRECTORY_ENV];
    else process.env[PROTO_DIRECTORY_ENV] = saved;
  });

  it('finds the sibling proto folder when running from source', () => {
    delete process.env[PROTO_DIRECTORY_ENV];
    expect(resolveProtoDirectory()).toBe(SOURCE_PROTO_DIR);
    expect(existsSync(path.join(SOURCE_PROTO_DIR, 'kvrpcpb.proto'))).toBe(true);
  });

  it('walks up from the compiled dist/ location to the source proto folder', () => {
    delete process.env[PROTO_DIRECTORY_ENV];
    const compiledDir = path.join(
      REPO_ROOT,
      'dist',
      'services',
      'common',
      'storage',
      'tikv',
      'protocol',
    );
    expect(resolveProtoDirectory(compiledDir)).toBe(SOURCE_PROTO_DIR);
  });

  it('honours the override and rejects one without the proto files', () => {
    process.env[PROTO_DIRECTORY_ENV] = SOURCE_PROTO_DIR;
    expect(resolveProtoDirectory('/nowhere')).toBe(SOURCE_PROTO_DIR);
    process.env[PROTO_DIRECTORY_ENV] = '/definitely/not/here';
    expect(() => resolveProtoDirectory()).toThrow(/does not contain tikvpb.proto/);
  });
});
