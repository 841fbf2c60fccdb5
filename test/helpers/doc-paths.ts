/**
 * What a document tells its reader to run or write, read from the Markdown itself so that a test runs exactly what
 * the document says: the fenced block right after a `<!-- path: NAME -->` line (indented blocks in list items
 * included). For `sh` blocks, the commands: blank lines and `#` comment lines are left out, a trailing ` # comment`
 * is cut. Pure.
 */

/**
 * The text of the ```` ```lang ```` block marked `name` in `markdown`, its indentation (that of the fence) removed.
 * Throws Error naming `name` and `doc` when there is none.
 */
export function docBlock(markdown: string, name: string, lang: string, doc = 'the document'): string {
  const m = new RegExp(`<!-- path: ${name} -->\\n([ \\t]*)\`\`\`${lang}\\n([\\s\\S]*?)\\n[ \\t]*\`\`\``).exec(markdown);
  if (!m) throw new Error(`${doc} has no \`<!-- path: ${name} -->\` line before a \`\`\`${lang} block`);
  const indent = m[1]!;
  return m[2]!
    .split('\n')
    .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
    .join('\n');
}

/** The commands of the `sh` block marked `name` in `markdown`. Throws Error naming `name` and `doc` when there is none. */
export function docCommands(markdown: string, name: string, doc = 'the document'): string[] {
  return docBlock(markdown, name, 'sh', doc)
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}
