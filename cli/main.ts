/**
 * `virtseed` command line: a thin layer over src/seed, parsed with commander. `--help` on every command prints to
 * stdout and exits 0; `--version` prints the package version. Exit code 2 for usage and input errors. Each command's
 * module is loaded when that command runs (start-up time, issue #15); `npm run build` bundles this entry into
 * dist/virtseed.js (packages/build/cli-bundle.ts), which bin/virtseed runs.
 *
 *   virtseed seed build SPEC -o ISO [--format nocloud|configdrive]      from a seed spec (JSON/YAML)
 *   virtseed seed build [-N F] [-V F] [-H H] [-i F] [-m M] [-d D] [-f iso|vfat] OUTPUT USER-DATA [META-DATA]
 *                                                                       cloud-localds's arguments
 *   virtseed seed show [--json] ISO
 *   virtseed plan-summary [--format markdown|json] [--title TEXT] [--fail-on restart|replace] PLAN.json|-
 *   virtseed provider install [--mirror DIR] ...                        (cli/commands/provider.ts parses its own)
 *   virtseed snapshot list [--uri URI] [--json] DOMAIN                  a domain's snapshots on a libvirt host
 *   virtseed snapshot revert [--uri URI] [--start] DOMAIN SNAPSHOT      the explicit revert (never a plan's)
 *   virtseed backup create|list|verify|prune|restore-disk ...            backups to a host directory (commands/backup.ts)
 * Commands that talk to libvirt finish asynchronously: their action leaves its exit code's promise in
 * `result.pending`, which mainAsync (and so the process) waits for.
 */
import { Command, CommanderError, Option } from 'commander';
import type { LocaldsArgs } from './commands/seed-localds';
import { CLOUDINIT_SEED_FIELDS } from '../src/fields/cloudinit-seed';
import { valuesOf } from '../src/fields/model';
import { processIo, type CliIo } from './io';
import { packageVersion } from './version';

/** Options of `seed build` as commander parses them. */
interface BuildOptions {
  output?: string;
  format?: string;
  networkConfig?: string;
  vendorData?: string;
  hostname?: string;
  interfaces?: string;
  dsmode?: string;
  diskFormat?: string;
  filesystem?: string;
  verbose: number;
}

const LOCALDS_ONLY: ReadonlyArray<[keyof BuildOptions, string]> = [
  ['networkConfig', '-N'],
  ['vendorData', '-V'],
  ['hostname', '-H'],
  ['interfaces', '-i'],
  ['dsmode', '-m'],
  ['diskFormat', '-d'],
  ['filesystem', '-f'],
];

const BUILD_HELP = `
Two forms:
  virtseed seed build SPEC -o ISO [--format nocloud|configdrive]
      A seed from a spec: a JSON or YAML mapping with the fields of the virtseed_cloudinit_seed resource (hostname,
      cloud_config, files, mounts, network, ...; lists named files, mounts, user_data_parts, network.interfaces).
      Prints the instance-id and the ISO's sha256.
  virtseed seed build [-N NETWORK-CONFIG] [-V VENDOR-DATA] [-H HOSTNAME] [-i INTERFACES] [-m DSMODE]
                      [-d DISK-FORMAT] [-f iso|vfat] OUTPUT USER-DATA [META-DATA]
      cloud-localds's arguments: the files go onto a NoCloud (cidata) image unchanged, the meta-data (when not
      given) as cloud-localds writes it. USER-DATA "-" reads stdin, OUTPUT "-" writes stdout.

Examples:
  virtseed seed build web1.yaml -o web1-seed.iso
  virtseed seed build -N network-config.yaml seed.img user-data meta-data
`;

const PLAN_SUMMARY_HELP = `
Impact on a running guest, least to most disruptive: none, next-boot, live, restart, replace, delete. For
virtseed_domain it is the planned state's change_impact when the provider computes it, else what the field tables
declare (the output says which); unknown while the plan does not know it. Sensitive values are masked, values
known only after apply are shown as such.

Exit codes: 0 printed; 2 usage error or not a plan's JSON; 3 printed, and the plan holds a change at or above
--fail-on (restart: a restart, replacement, destruction, or an unknown impact; replace: a replacement or
destruction).

Example:
  terraform plan -out=tfplan && terraform show -json tfplan > plan.json
  virtseed plan-summary --fail-on restart plan.json > plan-summary.md
`;

/** An action's outcome: its exit code, or (for commands that talk to libvirt) a promise of it. */
interface ActionResult {
  code: number;
  pending?: Promise<number>;
}

/** The command tree; actions store their exit code in `result.code` (or its promise in `result.pending`). */
function program(io: CliIo, result: ActionResult): Command {
  const root = new Command('virtseed')
    .description("The virtseed Terraform provider's installer, cloud-init seeds outside Terraform, and plan summaries for reviews.")
    .version(packageVersion(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'print help')
    .helpCommand(false)
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) });

  const seed = root.command('seed').description('build and inspect cloud-init seed images (NoCloud, ConfigDrive)').helpCommand(false);

  seed
    .command('build')
    .description("build a seed image from a spec, or from cloud-localds's arguments")
    .usage('[options] SPEC -o ISO | [options] OUTPUT USER-DATA [META-DATA]')
    .argument('<files...>', 'SPEC, or OUTPUT USER-DATA [META-DATA]')
    .option('-o, --output <iso>', 'spec form: the ISO to write')
    .addOption(new Option('--format <layout>', 'spec form: seed layout').choices(valuesOf(CLOUDINIT_SEED_FIELDS.fields.format)))
    .option('-N, --network-config <file>', 'network-config file (cloud-localds)')
    .option('-V, --vendor-data <file>', 'vendor-data file (cloud-localds)')
    .option('-H, --hostname <name>', 'local-hostname in the generated meta-data (cloud-localds)')
    .option('-i, --interfaces <file>', 'interfaces file put into the generated meta-data (cloud-localds)')
    .option('-m, --dsmode <mode>', 'dsmode in the generated meta-data: local or net (cloud-localds)')
    .option(
      '-d, --disk-format <format>',
      'raw (default), a qemu-img format such as qcow2, or tar, tar-seed-local, tar-seed-net (cloud-localds)',
    )
    .option('-f, --filesystem <fs>', 'iso or iso9660 (the default), or vfat (cloud-localds)')
    .option('-v, --verbose', 'say what was written (cloud-localds)', (_v: string, n: number) => n + 1, 0)
    .addHelpText('after', BUILD_HELP)
    .action((files: string[], opts: BuildOptions) => {
      result.code = build(files, opts, io);
    });

  seed
    .command('show')
    .description('list and print the files of a NoCloud or ConfigDrive image')
    .argument('<iso>', 'the image')
    .option('--json', 'print one JSON object: volume_id, format, files[] with path, size, sha256, encoding, content')
    .action((iso: string, opts: { json?: boolean }) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: a command loads its module when it runs (issue #15)
      const { seedShow } = require('./commands/seed-show') as typeof import('./commands/seed-show');
      result.code = seedShow({ iso, json: !!opts.json }, io);
    });

  root
    .command('plan-summary')
    .description('summarize a saved Terraform plan for a review: actions, impact on running guests, re-provisioning, changed attributes')
    .argument('<plan-json>', 'the output of `terraform show -json PLANFILE`, or - for stdin')
    .addOption(new Option('--format <format>', 'output format').choices(['markdown', 'json']).default('markdown'))
    .option('--title <text>', 'heading of the Markdown', 'virtseed plan summary')
    .addOption(
      new Option('--fail-on <impact>', `exit 3 when the plan holds a change this disruptive or more`).choices(['restart', 'replace']),
    )
    .addHelpText('after', PLAN_SUMMARY_HELP)
    .action((plan: string, opts: { format: 'markdown' | 'json'; title: string; failOn?: 'restart' | 'replace' }) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: a command loads its module when it runs (issue #15)
      const { planSummary } = require('./commands/plan-summary') as typeof import('./commands/plan-summary');
      result.code = planSummary({ plan, format: opts.format, title: opts.title, ...(opts.failOn ? { failOn: opts.failOn } : {}) }, io);
    });

  // `provider ...` keeps its own argument parsing: everything after `provider` is handed over unchanged.
  root
    .command('provider')
    .description('install the bundled terraform-provider-virtseed into a Terraform mirror (virtseed provider install --help)')
    .usage('install [--mirror DIR] [--from ARTIFACT_DIR] [--platform OS_ARCH]')
    .argument('[args...]')
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .passThroughOptions()
    .action((args: string[]) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: a command loads its module when it runs (issue #15)
      const { providerCommand } = require('./commands/provider') as typeof import('./commands/provider');
      result.code = providerCommand(args, io);
    });

  const snapshot = root
    .command('snapshot')
    .description("a domain's snapshots on a libvirt host, and reverting to one (virtseed_snapshot, snapshot_before)")
    .helpCommand(false);

  snapshot
    .command('list')
    .description("list a domain's snapshots: name, time, state (with memory or not), instance-id, description")
    .argument('<domain>', 'domain name or UUID')
    .option('--uri <uri>', "libvirt connection URI, as the provider's uri (default qemu:///system)")
    .option('--json', 'print a JSON array')
    .action((domain: string, opts: { uri?: string; json?: boolean }) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: a command loads its module when it runs (issue #15)
      const { snapshotList } = require('./commands/snapshot') as typeof import('./commands/snapshot');
      result.pending = snapshotList({ domain, uri: opts.uri, json: !!opts.json }, io);
    });

  snapshot
    .command('revert')
    .description(
      "revert a domain to a snapshot: its disks and definition, and a running guest's memory (resumed); a snapshot of a shut-off guest leaves it shut off, and writes the seed it had back into its seed volume",
    )
    .argument('<domain>', 'domain name or UUID')
    .argument('<snapshot>', 'snapshot name (virtseed snapshot list DOMAIN)')
    .option('--uri <uri>', "libvirt connection URI, as the provider's uri (default qemu:///system)")
    .option('--start', 'start the guest after reverting to a snapshot of it shut off')
    .action((domain: string, name: string, opts: { uri?: string; start?: boolean }) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: a command loads its module when it runs (issue #15)
      const { snapshotRevert } = require('./commands/snapshot') as typeof import('./commands/snapshot');
      result.pending = snapshotRevert({ domain, snapshot: name, uri: opts.uri, start: !!opts.start }, io);
    });

  const backup = root
    .command('backup')
    .description(
      "a running domain's disks, definition, seed and NVRAM backed up to a directory on its host, full or incremental (docs/backups.md)",
    )
    .helpCommand(false);
  const lazy = (): typeof import('./commands/backup') =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: a command loads its module when it runs (issue #15)
    require('./commands/backup') as typeof import('./commands/backup');
  const dirOption = ['--dir <dir>', 'the backup directory on the libvirt host (one folder per domain in it)'] as const;

  backup
    .command('create')
    .description('take the next backup of a running domain: incremental since the last one when its checkpoint is still there, else full')
    .argument('<domain>', 'domain name or UUID')
    .requiredOption(...dirOption)
    .option('--uri <uri>', "libvirt connection URI, as the provider's uri (default qemu:///system)")
    .option('--full', 'a full backup even when an incremental could be taken')
    .option('--json', 'print the manifest as JSON')
    .action((domain: string, opts: { dir: string; uri?: string; full?: boolean; json?: boolean }) => {
      result.pending = lazy().backupCreate({ domain, ...opts }, io);
    });

  backup
    .command('list')
    .description("list a domain's backups: id, parent, time, consistency, size, instance-id")
    .argument('<domain>', 'domain name')
    .requiredOption(...dirOption)
    .option('--json', 'print the manifests as a JSON array')
    .action((domain: string, opts: { dir: string; json?: boolean }) => {
      result.pending = lazy().backupList({ domain, ...opts }, io);
    });

  backup
    .command('verify')
    .description("recompute the sha256 of every file of a domain's backups and check their chains; exit 1 when one differs")
    .argument('<domain>', 'domain name')
    .requiredOption(...dirOption)
    .option('--backup <id>', 'only this backup (e.g. 0002-incremental)')
    .option('--json', 'print the result as JSON')
    .action((domain: string, opts: { dir: string; backup?: string; json?: boolean }) => {
      result.pending = lazy().backupVerify({ domain, ...opts }, io);
    });

  backup
    .command('prune')
    .description('keep the N latest backups (and the full and incremental backups they need); remove the rest')
    .argument('<domain>', 'domain name or UUID')
    .requiredOption(...dirOption)
    .requiredOption('--keep <n>', 'how many of the latest backups to keep')
    .option('--uri <uri>', "also delete the removed backups' checkpoints on the domain at this libvirt URI")
    .action((domain: string, opts: { dir: string; keep: string; uri?: string }) => {
      result.pending = lazy().backupPrune({ domain, ...opts }, io);
    });

  backup
    .command('restore-disk')
    .description(
      'write one disk as it was at a backup (its full backup plus increments) to a new qcow2 file, checked against the manifests',
    )
    .argument('<domain>', 'domain name')
    .requiredOption(...dirOption)
    .requiredOption('--backup <id>', 'the backup to restore (virtseed backup list DOMAIN)')
    .requiredOption('--disk <target>', 'the disk target, e.g. vda')
    .requiredOption('--output <file>', 'the qcow2 file to write')
    .action((domain: string, opts: { dir: string; backup: string; disk: string; output: string }) => {
      result.pending = lazy().backupRestoreDisk({ domain, ...opts }, io);
    });

  return root;
}

function usageError(io: CliIo, message: string): number {
  io.stderr(`virtseed seed build: ${message}\n(run virtseed seed build --help)\n`);
  return 2;
}

function build(files: string[], opts: BuildOptions, io: CliIo): number {
  if (opts.output !== undefined) {
    const given = LOCALDS_ONLY.filter(([k]) => opts[k] !== undefined).map(([, flag]) => flag);
    if (given.length)
      return usageError(
        io,
        `${given.join(', ')} belong to the cloud-localds form (OUTPUT USER-DATA [META-DATA]); with -o, set those in the spec`,
      );
    if (files.length !== 1) return usageError(io, `with -o, give exactly one SPEC file (got ${files.length}: ${files.join(' ')})`);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: a command loads its module when it runs (issue #15)
    const { seedBuild } = require('./commands/seed-build') as typeof import('./commands/seed-build');
    return seedBuild({ spec: files[0]!, output: opts.output, ...(opts.format ? { format: opts.format } : {}) }, io);
  }
  if (files.length === 1) {
    return usageError(
      io,
      `missing -o ISO for the spec ${files[0]} (spec form: virtseed seed build SPEC -o ISO; cloud-localds form: virtseed seed build OUTPUT USER-DATA [META-DATA])`,
    );
  }
  if (files.length > 3)
    return usageError(io, `too many arguments (${files.length}); the cloud-localds form is OUTPUT USER-DATA [META-DATA]`);
  if (opts.format !== undefined)
    return usageError(io, '--format belongs to the spec form (SPEC -o ISO); the cloud-localds form writes NoCloud');
  const args: LocaldsArgs = { output: files[0]!, userData: files[1]!, verbose: opts.verbose };
  if (files[2] !== undefined) args.metaData = files[2];
  for (const k of ['networkConfig', 'vendorData', 'hostname', 'interfaces', 'dsmode', 'diskFormat', 'filesystem'] as const) {
    if (opts[k] !== undefined) args[k] = opts[k];
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: a command loads its module when it runs (issue #15)
  const { seedLocalds } = require('./commands/seed-localds') as typeof import('./commands/seed-localds');
  return seedLocalds(args, io);
}

/** Parses argv and runs the command's action; a usage error gives code 2 (commander printed it). */
function dispatch(argv: string[], io: CliIo): ActionResult {
  const result: ActionResult = { code: 0 };
  try {
    program(io, result).parse(argv, { from: 'user' });
    return result;
  } catch (e) {
    if (e instanceof CommanderError) return { code: e.exitCode === 0 ? 0 : 2 };
    throw e;
  }
}

/**
 * Runs the CLI with argv (without node and script) and returns the exit code, for the commands that finish at once
 * (seed, provider); use mainAsync for any command.
 * @throws Error when the command finishes asynchronously (snapshot).
 */
export function main(argv: string[], io: CliIo = processIo): number {
  const result = dispatch(argv, io);
  if (result.pending) throw new Error('this command finishes asynchronously: call mainAsync');
  return result.code;
}

/** Runs the CLI with argv (without node and script) and resolves the exit code, once the command has finished. */
async function mainAsync(argv: string[], io: CliIo = processIo): Promise<number> {
  const result = dispatch(argv, io);
  return result.pending ? result.pending : result.code;
}

/** Runs the CLI as this process: exit code into `process.exitCode`, a closed stdout/stderr ends quietly (processIo). */
export function run(argv: string[] = process.argv.slice(2)): void {
  void mainAsync(argv).then((code) => (process.exitCode = code));
}

if (require.main === module) run();
