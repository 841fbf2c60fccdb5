import { Aspects, IAspect } from 'cdktf';
import { IConstruct } from 'constructs';

/**
 * Runs `check` once, at synth (cdktf invokes aspects before rendering the stack, in `app.synth()` and in
 * `Testing.synth*`), for late validation of value objects. `check` may throw to stop synth.
 */
export function onSynth(scope: IConstruct, check: () => void): void {
  let done = false;
  const aspect: IAspect = {
    visit(node: IConstruct): void {
      if (node !== scope || done) return;
      done = true;
      check();
    },
  };
  Aspects.of(scope).add(aspect);
}
