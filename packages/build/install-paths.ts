/**
 * The README's install paths, one place for everything that shows or runs them: each is a fenced `sh` block right
 * after a `<!-- install-path: NAME -->` line in README.md (NAME: `cdktf`, `cdktn`, `hcl`). packages.ts puts them in
 * the packages' READMEs; test/packages/install-from-packages.int.test.ts runs them line by line. Pure.
 */

/** The install paths the README has. */
export const INSTALL_PATHS = ['cdktf', 'cdktn', 'hcl'] as const;
export type InstallPath = (typeof INSTALL_PATHS)[number];

/**
 * The commands of every install path in `readme` (blank lines and `#` comment lines left out, a trailing
 * ` # comment` cut). Throws Error naming the path when the README lacks one, or its marker is not followed by a
 * fenced `sh` block.
 */
export function installPaths(readme: string): Record<InstallPath, string[]> {
  const out = {} as Record<InstallPath, string[]>;
  for (const name of INSTALL_PATHS) {
    const m = new RegExp(`<!-- install-path: ${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)\\n\`\`\``).exec(readme);
    if (!m) throw new Error(`README.md has no install path "${name}" (a \`<!-- install-path: ${name} -->\` line before a \`\`\`sh block)`);
    out[name] = m[1]
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
  }
  return out;
}

/** The commands of `path` as a fenced `sh` block, for a package README. */
export function installBlock(readme: string, path: InstallPath): string {
  return `\`\`\`sh\n${installPaths(readme)[path].join('\n')}\n\`\`\``;
}
