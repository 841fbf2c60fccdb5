import { main } from '../../cli/main';
import { CLI_COMMANDS } from '../../cli/commands/names';

describe('CLI_COMMANDS', () => {
  it('GIVEN the command tree WHEN its help lists the commands THEN they are CLI_COMMANDS (one code cache each)', () => {
    let out = '';
    expect(main(['--help'], { stdout: (t) => (out += t), stderr: () => undefined })).toBe(0);
    const listed = out
      .slice(out.indexOf('Commands:'))
      .split('\n')
      .slice(1)
      .map((line) => /^ {2}([a-z][a-z-]*)\b/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined);
    expect(listed.length).toBeGreaterThan(0);
    expect([...listed].sort()).toEqual([...CLI_COMMANDS].sort());
  });
});
