// typescript-eslint's recommended rules over everything the compiler checks (code, tests, scripts, benches).
// Formatting is prettier's job (.prettierrc.json); `npm run lint` runs both checks.
// Exceptions are single-line disables that name their reason. The only kind today: require() where a module must
// load lazily and synchronously (start-up time, issue #15; import() would make the callers async).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'dist/**',
      '**/cdktf.out/**',
      '**/*.generated.ts',
      'constructs/generated/**',
      '.test-run/**',
      'packages/cdktn/**',
      'packages/*/.stage/**',
      'bench/anchors/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      'no-control-regex': 'off', // ISO 9660 and XDR code matches control characters on purpose
      // `_name` marks a deliberately unused binding; `{ dropped, ...rest }` is how a copy without some keys is made.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
);
