/**
 * The build's TypeScript emit and the type check of the tests in one TypeScript program, for the test command
 * (scripts/test-all.sh, issue #33): `tsc -p tsconfig.json` (in `npm run build`) and `tsc -p tsconfig.test.json`
 * (`npm run typecheck`) each parse, bind and check all of the code, so running both checks the code twice. Here
 * one program holds tsconfig.json's files, then the files only tsconfig.test.json adds (the tests, and what they
 * import that the build leaves out): it is checked once, with tsconfig.test.json's options (which extend
 * tsconfig.json's and differ only in `noEmit` and `paths`, asserted below), and only the files of the build's
 * program (tsconfig.json's files and what they import) are emitted, into tsconfig.json's `outDir`.
 *
 * dist/ comes out byte-identical to `tsc -p tsconfig.json`'s: the build's files come first in the program, in
 * the order that program has them, so they are checked first and in the same order, and the types the checker
 * numbers along the way (whose numbers order the members of the unions written into the declarations) get the
 * same numbers; the other files are checked after them.
 *
 * The diagnostics are those the two commands report: syntactic, options, global and semantic diagnostics of every
 * file, the emit's (declaration) diagnostics of the build's files, and, as `tsc -p tsconfig.test.json` also reports
 * them (it has `declaration` with `noEmit`), the declaration diagnostics of the other files; printed as tsc prints
 * them (with colour and context on a terminal). Exit status: 0 without any; 2 when every one is in a file the
 * build does not hold (dist/ is complete and as `npm run build`'s tsc makes it: the type check failed, the build
 * did not); 1 otherwise (the build failed, as `tsc -p tsconfig.json` would).
 *
 * On the 2-core test machine (three alternated runs under load 6 to 19): the two tsc runs 46 to 60 CPU seconds,
 * this 36 to 45 (about 14 less; tsx's start about 2 of it).
 *
 * Usage: `npx tsx scripts/build-and-typecheck.ts`. A developer's `npm run build` and `npm run typecheck` stay
 * plain tsc.
 */
import * as path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..');

/** tsconfig file `name` in the checkout's root, parsed; its errors thrown, formatted as tsc formats them. */
function parseConfig(name: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, name),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.formatDiagnostics([d], formatHost));
      },
    },
  );
  if (!parsed) throw new Error(`${name}: could not be read`);
  if (parsed.errors.length) throw new Error(ts.formatDiagnostics(parsed.errors, formatHost));
  return parsed;
}

const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => process.cwd(),
  getNewLine: () => ts.sys.newLine,
};

/** The options that may differ between the build's and the type check's configuration (the rest must not, or the
 *  emit of one program would not be the build's). */
const MAY_DIFFER = new Set(['noEmit', 'paths', 'pathsBasePath', 'configFilePath']);

/** A compiler host that parses each file once for every program made with it. */
function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const parsed = new Map<string, ts.SourceFile | undefined>();
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (!parsed.has(fileName)) parsed.set(fileName, getSourceFile(fileName, languageVersion, onError, shouldCreate));
    return parsed.get(fileName);
  };
  return host;
}

function main(): number {
  const build = parseConfig('tsconfig.json');
  const check = parseConfig('tsconfig.test.json');
  const keys = new Set([...Object.keys(build.options), ...Object.keys(check.options)]);
  for (const key of keys) {
    if (MAY_DIFFER.has(key)) continue;
    if (JSON.stringify(build.options[key]) !== JSON.stringify(check.options[key])) {
      throw new Error(
        `tsconfig.test.json's option ${key} (${JSON.stringify(check.options[key])}) differs from tsconfig.json's ` +
          `(${JSON.stringify(build.options[key])}): one program cannot both check as the one and emit as the other; ` +
          'run `npm run build` and `npm run typecheck` instead',
      );
    }
  }
  // The build's program, made but never checked (its files parsed once, through the host's cache, for both): its
  // files are the ones to emit (its roots and what they import, e.g. a test helper a script uses), in its order.
  const host = cachingHost(check.options);
  const buildProgram = ts.createProgram({ rootNames: build.fileNames, options: build.options, host });
  const emitted = new Set(buildProgram.getSourceFiles().map((f) => f.fileName));
  const buildRoots = new Set(build.fileNames);
  const roots = [...build.fileNames, ...check.fileNames.filter((f) => !buildRoots.has(f))];
  const program = ts.createProgram({
    rootNames: roots,
    options: { ...check.options, noEmit: build.options.noEmit },
    host,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(check),
  });
  const isBuildFile = (f: ts.SourceFile) => emitted.has(f.fileName);

  // As tsc's emitFilesAndReportErrors, in its order; the emit of the build's files only.
  const diagnostics: ts.Diagnostic[] = [...program.getConfigFileParsingDiagnostics()];
  diagnostics.push(...program.getSyntacticDiagnostics());
  if (diagnostics.length === 0) {
    diagnostics.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
    if (diagnostics.length === 0) diagnostics.push(...program.getSemanticDiagnostics());
  }
  for (const file of program.getSourceFiles()) {
    if (isBuildFile(file)) diagnostics.push(...program.emit(file).diagnostics);
  }
  if (diagnostics.length === 0) {
    for (const file of program.getSourceFiles()) {
      if (!isBuildFile(file) && !program.isSourceFileFromExternalLibrary(file) && !file.isDeclarationFile) {
        diagnostics.push(...program.getDeclarationDiagnostics(file));
      }
    }
  }

  const sorted = ts.sortAndDeduplicateDiagnostics(diagnostics);
  if (sorted.length === 0) return 0;
  const pretty = process.stdout.isTTY;
  process.stdout.write(pretty ? ts.formatDiagnosticsWithColorAndContext(sorted, formatHost) : ts.formatDiagnostics(sorted, formatHost));
  const errors = sorted.filter((d) => d.category === ts.DiagnosticCategory.Error);
  const inBuild = errors.filter((d) => !d.file || isBuildFile(d.file));
  process.stdout.write(
    `\nFound ${errors.length} error${errors.length === 1 ? '' : 's'}` +
      (inBuild.length
        ? `, ${inBuild.length} in the build's files (tsconfig.json): the build failed.\n`
        : ", none in the build's files (tsconfig.json): dist/ is complete; the type check failed.\n"),
  );
  if (errors.length === 0) return 0;
  return inBuild.length ? 1 : 2;
}

process.exitCode = main();
