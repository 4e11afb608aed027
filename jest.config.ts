import type { Config } from 'jest';

// Type checking is done once by `tsc` in the test command; ts-jest only transpiles here, which keeps
// the suite fast on two cores.
const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/services', '<rootDir>/scripts', '<rootDir>/generated'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/fixtures/'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
  },
  testTimeout: 30_000,
  maxWorkers: 2,
};

export default config;
