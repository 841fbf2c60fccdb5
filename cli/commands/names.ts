/** The `virtseed` CLI's top-level commands, as cli/main.ts defines them; the CLI bundle keeps one V8 code cache per
 *  command (packages/build/cli-bundle.ts). A unit test holds this list against the command tree. */
export const CLI_COMMANDS: readonly string[] = ['seed', 'plan-summary', 'provider', 'snapshot', 'backup'];
