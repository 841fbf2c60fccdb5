/**
 * The integration project's jest environment: Node's, with the time bounds of limits.ts applied to every test and
 * hook whatever the file asked for (`jest.setTimeout`, a test's own timeout): no test or hook runs longer than
 * VIRTSEED_TEST_MAX_TEST_S, and once the file has run VIRTSEED_TEST_MAX_FILE_S its remaining tests and set-up hooks
 * get one second (they fail with jest's timeout message after a line saying why); afterAll/afterEach keep the
 * per-test bound so the teardown still runs. Uses jest-circus's documented `handleTestEvent` hook.
 * It also records the CPU the file used in this process and the commands it ran (process-cpu.ts) for the timing
 * table. With `--runInBand` (as scripts/test-all.sh runs the lanes) the file runs in this process, so the figure is
 * the file's own.
 */
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import type { Circus } from '@jest/types';
import { TestEnvironment } from 'jest-environment-node';
import { boundTimeout, maxFileMs, maxTestMs } from './limits';
import { processCpuSeconds, recordFileCpu } from './process-cpu';

export default class LimitsEnvironment extends TestEnvironment {
  private readonly fileStart = Date.now();
  private readonly cpuStart = processCpuSeconds();
  private readonly testPath: string;
  private told = false;

  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    this.testPath = context.testPath;
  }

  /** The timeout (ms) for a test or hook that asked for `asked`; `teardown`: an afterAll/afterEach hook. */
  private bound(asked: number, teardown: boolean): number {
    const left = this.fileStart + maxFileMs() - Date.now();
    const timeout = boundTimeout(asked, teardown, left, maxTestMs());
    if (timeout < Math.min(asked, maxTestMs()) && !this.told) {
      this.told = true;
      process.stderr.write(
        `limits: ${this.testPath} has ${Math.max(0, Math.round(left / 1000))} s left of VIRTSEED_TEST_MAX_FILE_S (${maxFileMs() / 1000} s): its remaining tests and set-up hooks get no more\n`,
      );
    }
    return timeout;
  }

  override async teardown(): Promise<void> {
    await super.teardown();
    // One turn of the event loop first: a child the file stopped in its last hook (a reattached provider process,
    // test/helpers/reattach.ts, stopped synchronously) is reaped, and its CPU enters cutime, only when libuv handles
    // its SIGCHLD; jest reaches this teardown through promises alone, without such a turn.
    await new Promise((resolve) => setTimeout(resolve, 50));
    recordFileCpu(this.testPath, processCpuSeconds() - this.cpuStart);
  }

  async handleTestEvent(event: Circus.Event, state: Circus.State): Promise<void> {
    if (event.name === 'test_fn_start') {
      event.test.timeout = this.bound(event.test.timeout || state.testTimeout, false);
    } else if (event.name === 'hook_start') {
      const teardown = event.hook.type === 'afterAll' || event.hook.type === 'afterEach';
      event.hook.timeout = this.bound(event.hook.timeout || state.testTimeout, teardown);
    }
  }
}
