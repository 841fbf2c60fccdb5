import { ProvisioningWatch } from '../../src/guest';

// Console lines as a Debian 12 guest (cloud-init 22.4.2) prints them through systemd's journal+console.
const RUNNING =
  "[   12.001234] cloud-init[251]: Cloud-init v. 22.4.2 running 'init-local' at Mon, 23 Nov 2026 01:00:00 +0000. Up 11.90 seconds.";
const FINISHED =
  '[   45.678901] cloud-init[402]: Cloud-init v. 22.4.2 finished at Mon, 23 Nov 2026 01:00:34 +0000. Datasource DataSourceNoCloud [seed=/dev/sr0][dsmode=net].  Up 45.60 seconds';
const RUNCMD_FAILED = [
  '[   44.1] cloud-init[402]: 2026-11-23 01:00:33,100 - subp.py[WARNING]: Failed running /var/lib/cloud/instance/scripts/runcmd [1]',
  '[   44.2] cloud-init[402]: 2026-11-23 01:00:33,101 - cc_scripts_user.py[WARNING]: Failed to run module scripts-user (scripts in /var/lib/cloud/instance/scripts)',
  "[   44.3] cloud-init[402]: 2026-11-23 01:00:33,102 - util.py[WARNING]: Running module scripts-user (<module 'cloudinit.config.cc_scripts_user' from '/usr/lib/python3/dist-packages/cloudinit/config/cc_scripts_user.py'>) failed",
];

function feed(w: ProvisioningWatch, lines: string[]): boolean {
  let done = false;
  for (const l of lines) done = w.line(l);
  return done;
}

describe('ProvisioningWatch cloud-init', () => {
  test('GIVEN a clean boot WHEN the finished line comes THEN it is finished without errors, with version and datasource', () => {
    const w = new ProvisioningWatch('cloud-init');
    expect(feed(w, [RUNNING, 'random kernel line'])).toBe(false);
    expect(w.outcome.finished).toBe(false);
    expect(w.line(FINISHED)).toBe(true);
    expect(w.outcome).toMatchObject({ finished: true, errors: [], warnings: [], version: '22.4.2', datasource: 'DataSourceNoCloud' });
    expect(w.outcome.finishedLine).toMatch(/^Cloud-init v\. 22\.4\.2 finished at /);
  });

  test('GIVEN a failing runcmd WHEN its module failure is printed THEN the watch ends there: one error names scripts-user and the runcmd warning is kept as context', () => {
    const w = new ProvisioningWatch('cloud-init');
    expect(feed(w, [RUNNING, RUNCMD_FAILED[0]])).toBe(false);
    expect(w.line(RUNCMD_FAILED[1])).toBe(true);
    expect(feed(w, [RUNCMD_FAILED[2], FINISHED])).toBe(true);
    const o = w.outcome;
    expect(o.finished).toBe(true);
    expect(o.finishedLine).toBeUndefined();
    expect(o.errors).toEqual([
      { module: 'scripts-user', message: 'Failed to run module scripts-user (scripts in /var/lib/cloud/instance/scripts)' },
    ]);
    expect(o.warnings).toEqual(['Failed running /var/lib/cloud/instance/scripts/runcmd [1]']);
  });

  test('GIVEN a bootcmd that fails in the init stage WHEN its failure is printed THEN the watch ends at once, before the later stages', () => {
    const w = new ProvisioningWatch('cloud-init');
    const failed =
      "[   62.9] cloud-init[318]: 2026-11-23 01:00:20,100 - util.py[WARNING]: Running module bootcmd (<module 'cloudinit.config.cc_bootcmd' from '/usr/lib/python3/dist-packages/cloudinit/config/cc_bootcmd.py'>) failed";
    expect(w.line(RUNNING)).toBe(false);
    expect(w.line(failed)).toBe(true);
    expect(w.outcome).toMatchObject({
      finished: true,
      errors: [{ module: 'bootcmd', message: expect.stringMatching(/^Running module bootcmd /) }],
    });
  });

  test('GIVEN only warnings WHEN finished THEN there are warnings and no errors', () => {
    const w = new ProvisioningWatch('cloud-init');
    feed(w, [
      '[CLOUDINIT] cc_set_passwords.py[WARNING]: Ignoring ssh_pwauth',
      '[CLOUDINIT] cc_set_passwords.py[WARNING]: Ignoring ssh_pwauth',
      FINISHED,
    ]);
    expect(w.outcome.errors).toEqual([]);
    expect(w.outcome.warnings).toEqual(['Ignoring ssh_pwauth']);
  });

  test('GIVEN a warning of several lines WHEN fed THEN the warning keeps its continuation lines naming the keys', () => {
    const w = new ProvisioningWatch('cloud-init');
    feed(w, [
      '[   40.1] cloud-init[312]: 2026-11-23 01:00:30,100 - schema.py[WARNING]: Deprecated cloud-config provided:',
      '[   40.1] cloud-init[312]: apt_update:  Dropped after April 2027. Use ``package_update``. Default: ``false``',
      '[   40.1] cloud-init[312]: chpasswd.list:  Dropped after April 2027. Use ``users``',
      '[   40.2] cloud-init[312]: ci-info: no authorized SSH keys fingerprints found for user virtseed.',
      '[   40.3] random: crng init done',
      FINISHED,
    ]);
    expect(w.outcome.warnings).toEqual([
      'Deprecated cloud-config provided:\napt_update:  Dropped after April 2027. Use ``package_update``. Default: ``false``\nchpasswd.list:  Dropped after April 2027. Use ``users``',
    ]);
  });

  test('GIVEN the same warning of several lines in two stages WHEN fed THEN it is kept once', () => {
    const w = new ProvisioningWatch('cloud-init');
    const twice = [312, 363].flatMap((pid) => [
      `[   40.1] cloud-init[${pid}]: 2026-11-23 01:00:30,100 - schema.py[WARNING]: Deprecated cloud-config provided:`,
      `[   40.1] cloud-init[${pid}]: apt_update:  Dropped after April 2027.`,
    ]);
    feed(w, [...twice, FINISHED]);
    expect(w.outcome.warnings).toEqual(['Deprecated cloud-config provided:\napt_update:  Dropped after April 2027.']);
  });

  // The deprecation line as a Debian 13 guest (cloud-init 25.1.4) printed it for `apt_update: false` (bench/boot-phases.ts
  // --deprecated-key); the finished line's form is 22.4's.
  test('GIVEN cloud-init 25.1 on Debian 13 WHEN a deprecation is logged at its DEPRECATED level THEN it is a warning, and the finished line is read', () => {
    const w = new ProvisioningWatch('cloud-init');
    feed(w, [
      "[   30.2] cloud-init[238]: Cloud-init v. 25.1.4 running 'init' at Mon, 30 Nov 2026 02:40:11 +0000. Up 30.10 seconds.",
      '[   40.1] cloud-init[238]: 2026-11-30 02:40:21,100 - loggers.py[DEPRECATED]: Deprecated cloud-config provided: apt_update:  Deprecated in version 22.2. Use **package_update** instead.',
      '[   41.0] cloud-init[238]: 2026-11-30 02:40:22,100 - loggers.py[DEPRECATED]: Deprecated cloud-config provided: apt_update:  Deprecated in version 22.2. Use **package_update** instead.',
    ]);
    expect(w.outcome).toMatchObject({ finished: false, errors: [], version: '25.1.4' });
    expect(
      w.line(
        '[   52.3] cloud-init[238]: Cloud-init v. 25.1.4 finished at Mon, 30 Nov 2026 02:40:33 +0000. Datasource DataSourceNoCloud [seed=/dev/sr0].  Up 52.20 seconds',
      ),
    ).toBe(true);
    expect(w.outcome).toMatchObject({
      finished: true,
      errors: [],
      warnings: ['Deprecated cloud-config provided: apt_update:  Deprecated in version 22.2. Use **package_update** instead.'],
      datasource: 'DataSourceNoCloud',
    });
  });

  test("GIVEN a warning ending in a colon WHEN the next line is another process's THEN nothing is joined", () => {
    const w = new ProvisioningWatch('cloud-init');
    feed(w, [
      '[   40.1] cloud-init[312]: 2026-11-23 01:00:30,100 - util.py[WARNING]: Something failed:',
      '[   40.2] systemd[1]: foo.service: Deactivated successfully.',
      FINISHED,
    ]);
    expect(w.outcome.warnings).toEqual(['Something failed:']);
  });

  test('GIVEN cloud-init ran without a seed WHEN finished with DataSourceNone THEN that is an error', () => {
    const w = new ProvisioningWatch('cloud-init');
    w.line('cloud-init[1]: Cloud-init v. 22.4.2 finished at Mon, 23 Nov 2026 01:00:34 +0000. Datasource DataSourceNone.  Up 45.60 seconds');
    expect(w.outcome.finished).toBe(true);
    expect(w.outcome.errors[0].message).toMatch(/no datasource/);
  });

  test('GIVEN an ERROR line WHEN seen THEN it is an error without a module', () => {
    const w = new ProvisioningWatch('cloud-init');
    feed(w, ['stages.py[ERROR]: Unable to render networking', FINISHED]);
    expect(w.outcome.errors).toEqual([{ message: 'Unable to render networking' }]);
  });

  test('GIVEN lines after the finished line WHEN fed THEN the outcome no longer changes', () => {
    const w = new ProvisioningWatch('cloud-init');
    feed(w, [FINISHED, ...RUNCMD_FAILED]);
    expect(w.outcome.errors).toEqual([]);
  });
});

describe('ProvisioningWatch ignition', () => {
  test('GIVEN the fetch stage finished WHEN the files stage has not passed THEN it is not done; after files passed and finished it is', () => {
    const w = new ProvisioningWatch('ignition');
    expect(feed(w, ['ignition[300]: INFO     : fetch: fetch passed', 'ignition[300]: INFO     : Ignition finished successfully'])).toBe(
      false,
    );
    expect(feed(w, ['ignition[310]: INFO     : files: files passed', 'ignition[310]: INFO     : Ignition finished successfully'])).toBe(
      true,
    );
    expect(w.outcome.errors).toEqual([]);
    expect(w.outcome.finishedLine).toMatch(/Ignition finished successfully/);
  });

  test('GIVEN Ignition failed WHEN seen THEN it is done with the error', () => {
    const w = new ProvisioningWatch('ignition');
    expect(w.line('ignition[310]: CRITICAL : Ignition failed: failed to create files: open /etc/x: permission denied')).toBe(true);
    expect(w.outcome.errors).toEqual([{ message: 'Ignition failed: failed to create files: open /etc/x: permission denied' }]);
  });
});
