/**
 * Concurrency (issue 31), no guest booted: 50 domains (defined, not running) created and destroyed at
 * `-parallelism=20`; two Terraform runs with separate states against one libvirtd at once; one provider process
 * serving many resources while a libvirtd of the test's own (test/faults/own-libvirtd.ts, never the shared one) is
 * restarted: the next apply converges and nothing is lost. Objects are named `vstest-conc-…`.
 *
 * Terraform reattaches to one provider process per working directory (test/helpers/reattach.ts) except in the
 * restart test's interrupted apply and the apply after it, which stay managed (terraform starts the provider, as
 * for users): the process that serves the apply must reconnect to the restarted libvirtd, and the next apply is a
 * user's next command. Its empty-plan check and destroy reattach.
 */
import * as fs from 'node:fs';
import { expectNothingLeft, expectPlanEmpty, removeByPrefix, stateValues } from '../helpers/steps';
import { TfWorkdir } from '../helpers/terraform';
import { OwnLibvirtd } from '../faults/own-libvirtd';

jest.setTimeout(900_000);

const PREFIX = 'vstest-conc';

/** `n` defined-only domains `<prefix>-<i>` with a user-mode NIC, and (optionally) a 1 MiB volume each. */
function domains(prefix: string, n: number, opts: { volumes?: boolean; pool?: string } = {}): string {
  let out = '';
  for (let i = 0; i < n; i++) {
    if (opts.volumes)
      out += `resource "virtseed_volume" "v${i}" {\n  pool = "${opts.pool ?? 'default'}"\n  name = "${prefix}-${i}.qcow2"\n  capacity = 1048576\n}\n`;
    out += `resource "virtseed_domain" "d${i}" {
  name = "${prefix}-${i}"
  memory = 128
  type = "qemu"
  running = false
${opts.volumes ? `  disk { volume_id = virtseed_volume.v${i}.id }\n` : ''}  network_interface { user = true }
}
`;
  }
  return out;
}

afterAll(() => removeByPrefix(PREFIX));

test('GIVEN 50 domains WHEN applied and destroyed at -parallelism=20 THEN the plan is empty between and nothing is left', () => {
  const tf = new TfWorkdir('conc50');
  try {
    tf.write(domains(`${PREFIX}-p`, 50));
    tf.init();
    tf.ok(['apply', '-auto-approve', '-input=false', '-parallelism=20']);
    expect(Object.keys(stateValues(tf)).length).toBe(50);
    expectPlanEmpty(tf, 'creating 50 domains at -parallelism=20');
    tf.ok(['destroy', '-auto-approve', '-input=false', '-parallelism=20']);
    expectNothingLeft(`${PREFIX}-p-`);
  } finally {
    tf.dispose();
    removeByPrefix(`${PREFIX}-p-`);
  }
});

test('GIVEN two configurations with separate states WHEN applied and destroyed at once against one libvirtd THEN both succeed, each plan is empty, nothing is left', async () => {
  const a = new TfWorkdir('conc-a');
  const b = new TfWorkdir('conc-b');
  try {
    a.write(domains(`${PREFIX}-a`, 10, { volumes: true }));
    b.write(domains(`${PREFIX}-b`, 10, { volumes: true }));
    a.init();
    b.init();
    const applied = await Promise.all([a, b].map((w) => w.runAsync(['apply', '-auto-approve', '-input=false'])));
    for (const r of applied) if (r.code !== 0) throw new Error(`one of two concurrent applies exited ${r.code}:\n${r.out}`);
    expectPlanEmpty(a, 'two concurrent applies (a)');
    expectPlanEmpty(b, 'two concurrent applies (b)');
    const destroyed = await Promise.all([a, b].map((w) => w.runAsync(['destroy', '-auto-approve', '-input=false'])));
    for (const r of destroyed) if (r.code !== 0) throw new Error(`one of two concurrent destroys exited ${r.code}:\n${r.out}`);
    expectNothingLeft(`${PREFIX}-a-`);
    expectNothingLeft(`${PREFIX}-b-`);
  } finally {
    a.dispose();
    b.dispose();
    removeByPrefix(`${PREFIX}-a-`);
    removeByPrefix(`${PREFIX}-b-`);
  }
});

test('GIVEN one apply of 30 resources WHEN its libvirtd is restarted during it THEN the next apply converges, the plan is empty and every object in the state exists', async () => {
  const lvd = new OwnLibvirtd('conc');
  const tf = new TfWorkdir('conc-restart');
  const managed = 'libvirtd restarts under the apply: the provider terraform started must reconnect';
  try {
    await lvd.start();
    await lvd.createPool('conc');
    tf.write(domains(`${PREFIX}-r`, 15, { volumes: true, pool: 'conc' }), `provider "virtseed" {\n  uri = "${lvd.uri}"\n}`);
    tf.init();
    const running = tf.managedFor(managed, () => tf.runAsync(['apply', '-auto-approve', '-input=false']));
    await new Promise((r) => setTimeout(r, 2500));
    await lvd.restart();
    const first = await running;
    // The interrupted apply may fail or not; the next one must converge.
    const second = tf.managedFor(managed, () => tf.run(['apply', '-auto-approve', '-input=false']));
    if (second.code !== 0)
      throw new Error(`the apply after the restart exited ${second.code}:\n${second.out}\n--- the interrupted apply:\n${first.out}`);
    expectPlanEmpty(tf, 'the apply after a libvirtd restart');
    const state = stateValues(tf);
    expect(Object.keys(state).length).toBe(30);
    const { volumes, domains: doms } = await lvd.listing('conc');
    expect(volumes.filter((v) => v.startsWith(`${PREFIX}-r-`)).length).toBe(15);
    expect(doms.filter((d) => d.startsWith(`${PREFIX}-r-`)).length).toBe(15);
    tf.destroy();
    const after = await lvd.listing('conc');
    expect([...after.volumes, ...after.domains].filter((n) => n.startsWith(PREFIX))).toEqual([]);
  } finally {
    // The own daemon and everything in it go with the test: no destroy against a stopped daemon.
    tf.stopProvider();
    fs.rmSync(tf.dir, { recursive: true, force: true });
    await lvd.stop();
    lvd.dispose();
  }
});
