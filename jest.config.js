// Two projects: `unit` (pure code, seconds) and `integration` (real xorriso, cloud-init, libvirtd, terraform,
// guest boots). `npm run test:unit` is the fast loop; `npm test` runs both (see scripts/test-all.sh).
const transform = { '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } }] };
// examples/library is a package of its own that imports `@virtseed/cdktf`; in this checkout that is constructs/.
const moduleNameMapper = { '^@virtseed/cdktf$': '<rootDir>/constructs/index.ts' };
module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      transform,
      moduleNameMapper,
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      testPathIgnorePatterns: ['\\.int\\.test\\.ts$', '/node_modules/', '<rootDir>/dist/'],
    },
    {
      displayName: 'integration',
      // Node's environment with the bounds of test/helpers/limits.ts on every test and hook (issue #33).
      testEnvironment: '<rootDir>/test/helpers/limits-environment.ts',
      transform,
      testMatch: ['<rootDir>/test/**/*.int.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/dist/'],
    },
  ],
};
