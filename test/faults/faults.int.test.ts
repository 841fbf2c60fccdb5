/**
 * Faults injected into real `terraform apply` runs against a libvirtd of the test's own (never the shared system
 * daemon): libvirtd killed and restarted mid-upload and mid-create, terraform interrupted (SIGINT) mid-upload and
 * mid-create, the provider SIGKILLed mid-upload, the connection dropped mid-upload, and the connection dropped with
 * libvirtd's reply to a create's last call (a volume's marker delete, a domain's and a pool's autostart, a snapshot's
 * create: the object exists, the provider never hears so; it must be recorded tainted). After each, the next
 * `terraform apply` must converge: a following plan shows no changes, the pool holds exactly the volumes in the
 * state (no partial volume, no pending marker), libvirt holds exactly the domains in the state, the uploaded
 * volume is byte-identical to its source and the data volume is untouched.
 *
 * The faulted apply and the apply after it run the managed way (terraform starts the provider, as for users). The
 * bookkeeping around them (the plan after the convergence, the apply back to the data volume alone) reattaches to one
 * provider process of the file (test/helpers/reattach.ts), which a second ConfigureProvider makes connect anew.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { RemoteProcedure as PROC } from '../../src/libvirt/protocol';
import { MessageType, REMOTE_PROGRAM } from '../../src/libvirt/packet';
import { managedReason, ProviderProcess } from '../helpers/reattach';
import { OwnLibvirtd } from './own-libvirtd';

jest.setTimeout(900_000);

const POOL = 'vstest-fault';
const DATA = 'vstest-fault-data.raw';
const BIG = 'vstest-fault-big.raw';
const DOMAIN = 'vstest-fault-d';
/**
 * The uploaded image: big enough that a fault lands mid-upload (the faults wait until `UPLOADING_BYTES` are in the
 * pool, then strike while the rest is on its way), small enough that each of the file's dozen uploads and sha256s is
 * quick; its size is not what is tested. Each upload fault checks that it struck before the whole image was in the
 * pool (`expectMidUpload`).
 */
const BIG_BYTES = 48 * 1024 * 1024;
const UPLOADING_BYTES = 8 * 1024 * 1024;

function sha256(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Bytes really written to a (sparse) file. */
function allocated(file: string): number {
  try {
    return fs.statSync(file).blocks * 512;
  } catch {
    return 0;
  }
}

/** All descendants of `pid` (children first found through /proc/PID/task/TID/children). */
function descendants(pid: number): number[] {
  const out: number[] = [];
  const walk = (p: number): void => {
    let tasks: string[] = [];
    try {
      tasks = fs.readdirSync(`/proc/${p}/task`);
    } catch {
      return;
    }
    for (const t of tasks) {
      let kids: number[] = [];
      try {
        kids = fs.readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
      } catch {
        kids = [];
      }
      for (const k of kids) {
        out.push(k);
        walk(k);
      }
    }
  };
  walk(pid);
  return out;
}

interface Run {
  child: ChildProcess;
  out: () => string;
  done: Promise<number>;
}

describe('faults during terraform apply against our own libvirtd', () => {
  const lvd = new OwnLibvirtd('faults');
  const work = fs.mkdtempSync('/tmp/vstest-tf-faults-');
  const relaySock = path.join(work, 'relay.sock');
  const bigSource = path.join(work, 'big.raw');
  const dataSource = path.join(work, 'data.raw');
  const env = { ...process.env, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', NO_COLOR: '1' };
  delete (env as Record<string, unknown>).TF_LOG;
  let relay: net.Server;
  const relayed: net.Socket[] = [];
  /**
   * When set, the relay drops the connection (both ends) instead of passing on libvirtd's reply to this remote
   * procedure (src/libvirt/protocol.ts), once: the call is carried out, its answer never arrives.
   */
  let dropReplyTo: number | null = null;
  let droppedReplies = 0;
  let dataSha = '';
  let bigSha = '';
  const table: string[] = [];

  function hcl(withBig: boolean, viaRelay = false, autostart = false, extra = ''): string {
    const uri = viaRelay ? `qemu+unix:///session?socket=${relaySock}` : lvd.uri;
    let s = `terraform {
  required_providers {
    virtseed = { source = "virtseed/virtseed", version = "0.1.0" }
  }
}
provider "virtseed" {
  uri = "${uri}"
}
resource "virtseed_volume" "data" {
  pool   = "${POOL}"
  name   = "${DATA}"
  source = "${dataSource}"
}
`;
    if (withBig)
      s += `resource "virtseed_volume" "big" {
  pool   = "${POOL}"
  name   = "${BIG}"
  source = "${bigSource}"
}
resource "virtseed_domain" "d" {
  name    = "${DOMAIN}"
  memory  = 64
  type    = "qemu"
  running = false${autostart ? '\n  autostart = true' : ''}
  disk { volume_id = virtseed_volume.big.id }
}
`;
    s += extra;
    fs.writeFileSync(path.join(work, 'main.tf'), s);
    return s;
  }

  /** The provider process the bookkeeping commands reattach to (see the file's doc); started at the first. */
  let provider: ProviderProcess | undefined;

  /** `TF_REATTACH_PROVIDERS` for a bookkeeping command, or nothing when reattaching is off. */
  function reattach(): NodeJS.ProcessEnv {
    if (managedReason([], {}, undefined) !== null) return {};
    if (!provider?.alive) provider = ProviderProcess.start(work, env);
    return { TF_REATTACH_PROVIDERS: provider.reattach };
  }

  /** Runs terraform without blocking the event loop (the relay lives in this process); `bookkeeping` reattaches it
   *  to the file's provider process. */
  function tf(args: string[], bookkeeping = false): Promise<{ code: number; out: string }> {
    return new Promise((resolve) => {
      const runEnv = bookkeeping ? { ...env, ...reattach() } : env;
      const child = spawn('terraform', [...args, '-no-color'], { cwd: work, env: runEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr.on('data', (b: Buffer) => (out += b.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        const died = bookkeeping && provider && !provider.alive;
        const note = died ? `\n--- the reattached provider (pid ${provider!.pid}) is gone; its stderr:\n${provider!.stderrTail()}` : '';
        resolve({ code: code ?? -1, out: out + note });
      });
    });
  }

  async function tfOk(args: string[], bookkeeping = false): Promise<string> {
    const r = await tf(args, bookkeeping);
    if (r.code !== 0) throw new Error(`terraform ${args.join(' ')} exited ${r.code}:\n${r.out}`);
    return r.out;
  }

  function applyAsync(): Run {
    const child = spawn('terraform', ['apply', '-auto-approve', '-input=false', '-no-color'], {
      cwd: work,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    const done = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
    return { child, out: () => out, done };
  }

  async function until(what: string, cond: () => boolean, run: Run, timeoutMs = 120_000): Promise<void> {
    const start = Date.now();
    while (!cond()) {
      if (run.child.exitCode !== null) throw new Error(`terraform ended before ${what}:\n${run.out()}`);
      if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}:\n${run.out()}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  const uploading = (): boolean => allocated(path.join(lvd.poolDir, BIG)) > UPLOADING_BYTES;

  /** The fault just struck mid-upload: part of the image, not all of it, is in the pool. */
  const expectMidUpload = (fault: string): void => {
    const bytes = allocated(path.join(lvd.poolDir, BIG));
    expect({ fault, midUpload: bytes > 0 && bytes < BIG_BYTES, bytes }).toEqual({ fault, midUpload: true, bytes });
  };

  /** Volumes and domains on our libvirtd. */
  const hostFacts = () => lvd.listing(POOL);

  /** The next apply converges; returns what it did. */
  async function convergeAndCheck(fault: string, where: string, withBig = true): Promise<void> {
    const second = await tf(['apply', '-auto-approve', '-input=false']);
    if (second.code !== 0) throw new Error(`the apply after "${fault}" did not converge:\n${second.out}`);
    const did = /Apply complete! Resources: (\d+) added, (\d+) changed, (\d+) destroyed/.exec(second.out)?.slice(1) ?? [];
    const plan = await tf(['plan', '-detailed-exitcode', '-input=false'], true);
    expect({ fault, planExit: plan.code, out: plan.code === 0 ? '' : plan.out }).toEqual({ fault, planExit: 0, out: '' });
    const facts = await hostFacts();
    const wantVolumes = withBig ? [BIG, DATA].sort() : [DATA];
    const orphans = [...facts.volumes.filter((v) => !wantVolumes.includes(v)), ...facts.domains.filter((d) => d !== DOMAIN || !withBig)];
    expect({ fault, volumes: facts.volumes, domains: facts.domains }).toEqual({
      fault,
      volumes: wantVolumes,
      domains: withBig ? [DOMAIN] : [],
    });
    expect(sha256(path.join(lvd.poolDir, DATA))).toBe(dataSha);
    if (withBig) expect(sha256(path.join(lvd.poolDir, BIG))).toBe(bigSha);
    table.push(
      `| ${fault} | ${where} | converged: ${did[0] ?? '?'} added, ${did[1] ?? '?'} changed, ${did[2] ?? '?'} destroyed; next plan: no changes | ${orphans.length ? orphans.join(', ') : 'none'} |`,
    );
  }

  /** Back to the data volume only. */
  async function reset(): Promise<void> {
    hcl(false);
    await tfOk(['apply', '-auto-approve', '-input=false'], true);
  }

  beforeAll(async () => {
    execFileSync('sh', ['-c', `head -c ${BIG_BYTES} /dev/urandom > ${bigSource} && head -c 1048576 /dev/urandom > ${dataSource}`]);
    bigSha = sha256(bigSource);
    dataSha = sha256(dataSource);
    await lvd.start();
    await lvd.createPool(POOL);
    relay = net.createServer((client) => {
      const daemon = net.connect(lvd.socket);
      relayed.push(client, daemon);
      client.pipe(daemon);
      // libvirtd → client packet by packet (length, program, version, procedure, type, serial, status: XDR, big-endian).
      let pending = Buffer.alloc(0);
      daemon.on('data', (b: Buffer) => {
        pending = Buffer.concat([pending, b]);
        while (pending.length >= 4 && pending.length >= pending.readUInt32BE(0)) {
          const packet = pending.subarray(0, pending.readUInt32BE(0));
          pending = pending.subarray(packet.length);
          const isReply = packet.readUInt32BE(4) === REMOTE_PROGRAM && packet.readUInt32BE(16) === MessageType.Reply;
          if (isReply && dropReplyTo !== null && packet.readUInt32BE(12) === dropReplyTo) {
            dropReplyTo = null;
            droppedReplies++;
            client.destroy();
            daemon.destroy();
            return;
          }
          client.write(packet);
        }
      });
      client.on('error', () => daemon.destroy());
      daemon.on('error', () => client.destroy());
      client.on('close', () => daemon.destroy());
      daemon.on('close', () => client.destroy());
    });
    await new Promise<void>((r) => relay.listen(relaySock, r));
    hcl(false);
    await tfOk(['init', '-input=false']);
    await tfOk(['apply', '-auto-approve', '-input=false']);
  });

  afterAll(async () => {
    if (table.length)
      process.stdout.write(
        `\n| fault injected | where | what the next apply did | orphans found |\n|---|---|---|---|\n${table.join('\n')}\n`,
      );
    provider?.stop();
    relayed.forEach((s) => s.destroy());
    relay?.close();
    await lvd.stop();
    lvd.dispose();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('GIVEN libvirtd killed and restarted mid-upload WHEN applied again THEN it converges with the whole image', async () => {
    hcl(true);
    const run = applyAsync();
    await until('the upload', uploading, run);
    await lvd.signal('SIGKILL');
    expectMidUpload('libvirtd SIGKILL');
    await lvd.start();
    expect(await run.done).not.toBe(0);
    await convergeAndCheck('libvirtd SIGKILL + restart', `virtseed_volume upload (${BIG_BYTES / 1024 / 1024} MiB)`);
    await reset();
  });

  it('GIVEN libvirtd killed and restarted while the domain is created WHEN applied again THEN it converges', async () => {
    hcl(true);
    const run = applyAsync();
    // Freeze the daemon as soon as terraform starts the domain, so its create is in flight when the daemon dies.
    await until('the domain create', () => run.out().includes('virtseed_domain.d: Creating...'), run, 300_000);
    await lvd.signal('SIGSTOP');
    await new Promise((r) => setTimeout(r, 300));
    await lvd.signal('SIGKILL');
    await lvd.start();
    await run.done;
    await convergeAndCheck('libvirtd SIGSTOP, SIGKILL + restart', 'virtseed_domain create (define)');
    await reset();
  });

  it('GIVEN terraform interrupted (SIGINT) mid-upload WHEN applied again THEN it converges', async () => {
    hcl(true);
    const run = applyAsync();
    await until('the upload', uploading, run);
    run.child.kill('SIGINT');
    expectMidUpload('terraform SIGINT');
    expect(await run.done).not.toBe(0);
    await convergeAndCheck('terraform SIGINT', 'virtseed_volume upload');
    await reset();
  });

  it('GIVEN terraform interrupted (SIGINT) while the domain is created WHEN applied again THEN it converges', async () => {
    hcl(true);
    const run = applyAsync();
    await until('the domain create', () => run.out().includes('virtseed_domain.d: Creating...'), run, 300_000);
    run.child.kill('SIGINT');
    await run.done;
    await convergeAndCheck('terraform SIGINT', 'virtseed_domain create');
    await reset();
  });

  it('GIVEN the provider SIGKILLed mid-upload WHEN applied again THEN the partial volume is removed and it converges', async () => {
    hcl(true);
    const run = applyAsync();
    await until('the upload', uploading, run);
    const victims = descendants(run.child.pid!);
    expect(victims.length).toBeGreaterThan(0);
    for (const pid of victims) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    expectMidUpload('provider SIGKILL');
    expect(await run.done).not.toBe(0);
    const left = (await hostFacts()).volumes;
    expect(left).toContain(`${BIG}.virtseed-incomplete`); // the marker says the upload did not finish
    await convergeAndCheck('provider SIGKILL', 'virtseed_volume upload');
    await reset();
  });

  it('GIVEN the connection dropped mid-upload WHEN applied again THEN it converges', async () => {
    hcl(true, true);
    const run = applyAsync();
    await until('the upload', uploading, run);
    relayed.forEach((s) => s.destroy());
    expectMidUpload('connection dropped');
    expect(await run.done).not.toBe(0);
    await convergeAndCheck('connection dropped (relay closed)', 'virtseed_volume upload');
    hcl(false, true);
    await tfOk(['apply', '-auto-approve', '-input=false'], true);
  });

  /**
   * A create whose libvirt calls all succeed but whose last answer is lost (the connection dropped as libvirtd sends
   * it): the object exists, the apply fails, and the next apply must replace it rather than refuse its name.
   */
  async function replyLost(fault: string, proc: number, autostart: boolean): Promise<void> {
    hcl(true, true, autostart);
    await applyLosingReply(fault, proc, /was (created|defined) but not finished[\s\S]*recorded\s+as\s+tainted/);
    await convergeAndCheck(fault, 'the last reply of a create lost');
    hcl(false, true);
    await tfOk(['apply', '-auto-approve', '-input=false'], true);
  }

  /** Applies with libvirtd's reply to `proc` dropped: the apply fails, and its error records the object tainted. */
  async function applyLosingReply(fault: string, proc: number, tainted: RegExp): Promise<void> {
    const before = droppedReplies;
    dropReplyTo = proc;
    const first = await tf(['apply', '-auto-approve', '-input=false']);
    dropReplyTo = null;
    expect({ fault, dropped: droppedReplies - before, code: first.code }).toEqual({ fault, dropped: 1, code: 1 });
    if (!tainted.test(first.out))
      throw new Error(`the apply whose reply was lost (${fault}) did not record the object tainted:\n${first.out}`);
  }

  /** The next apply replaces the tainted object (one added, one destroyed), and the plan after it is empty. */
  async function replacedThenPlanEmpty(fault: string): Promise<void> {
    const second = await tf(['apply', '-auto-approve', '-input=false']);
    if (second.code !== 0) throw new Error(`the apply after "${fault}" did not converge:\n${second.out}`);
    expect(second.out).toMatch(/Resources: 1 added, 0 changed, 1 destroyed/);
    const plan = await tf(['plan', '-detailed-exitcode', '-input=false'], true);
    expect({ fault, planExit: plan.code, out: plan.code === 0 ? '' : plan.out }).toEqual({ fault, planExit: 0, out: '' });
  }

  it("GIVEN the connection dropped with the reply to the volume marker's delete WHEN applied again THEN the volume is replaced and it converges", async () => {
    await replyLost('reply to the marker delete lost', PROC.STORAGE_VOL_DELETE, false);
  });

  it("GIVEN the connection dropped with the reply to a new domain's autostart WHEN applied again THEN the domain is replaced and it converges", async () => {
    await replyLost('reply to the domain autostart lost', PROC.DOMAIN_SET_AUTOSTART, true);
  });

  it("GIVEN the connection dropped with the reply to a new storage pool's autostart WHEN applied again THEN the pool is replaced and it converges", async () => {
    const name = 'vstest-fault-extra';
    const pool = `resource "virtseed_pool" "p" {\n  name = "${name}"\n  path = "${path.join(lvd.dir, 'extra-pool')}"\n}\n`;
    hcl(false, true, false, pool);
    const fault = 'reply to the pool autostart lost';
    await applyLosingReply(
      fault,
      PROC.STORAGE_POOL_SET_AUTOSTART,
      /Storage pool vstest-fault-extra was defined but not finished[\s\S]*recorded\s+as\s+tainted/,
    );
    await replacedThenPlanEmpty(fault);
    expect((await lvd.poolNames()).filter((p) => p === name)).toEqual([name]);
    hcl(false, true);
    await tfOk(['apply', '-auto-approve', '-input=false'], true);
    expect(await lvd.poolNames()).not.toContain(name);
  });

  it("GIVEN the connection dropped with the reply to a snapshot's create WHEN applied again THEN the snapshot is replaced and it converges", async () => {
    const disk = 'vstest-fault-snap.qcow2';
    const dom = 'vstest-fault-s';
    const extra = [
      `resource "virtseed_volume" "snapdisk" {\n  pool     = "${POOL}"\n  name     = "${disk}"\n  capacity = 1048576\n}`,
      `resource "virtseed_domain" "s" {\n  name    = "${dom}"\n  memory  = 64\n  type    = "qemu"\n  running = false\n  disk { volume_id = virtseed_volume.snapdisk.id }\n}`,
      `resource "virtseed_snapshot" "before" {\n  domain_id = virtseed_domain.s.id\n  name      = "before"\n}\n`,
    ].join('\n');
    hcl(false, true, false, extra);
    const fault = 'reply to the snapshot create lost';
    await applyLosingReply(
      fault,
      PROC.DOMAIN_SNAPSHOT_CREATE_XML,
      /Snapshot before of domain vstest-fault-s was requested but not finished[\s\S]*recorded\s+as\s+tainted/,
    );
    await replacedThenPlanEmpty(fault);
    expect(await lvd.snapshotNames(dom)).toEqual(['before']);
    hcl(false, true);
    await tfOk(['apply', '-auto-approve', '-input=false'], true);
    expect(await hostFacts()).toEqual({ volumes: [DATA], domains: [] });
  });
});
