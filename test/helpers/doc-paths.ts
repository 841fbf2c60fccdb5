/**
 * The commands a document tells its reader to run, read from the Markdown itself so that a test runs exactly what
 * the document says: the fenced `sh` block right after a `<!-- path: NAME -->` line (indented blocks in list items
 * included). Blank lines and `#` comment lines are left out, a trailing ` # comment` is cut. Pure.
 */

/** The commands of the block marked `name` in `markdown`. Throws Error naming `name` and `doc` when there is none. */
export function docCommands(markdown: string, name: string, doc = 'the document'): string[] {
  const m = new RegExp(`<!-- path: ${name} -->\\n([ \\t]*)\`\`\`sh\\n([\\s\\S]*?)\\n[ \\t]*\`\`\``).exec(markdown);
  if (!m) throw new Error(`${doc} has no \`<!-- path: ${name} -->\` line before a \`\`\`sh block`);
  return m[2]!
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}
