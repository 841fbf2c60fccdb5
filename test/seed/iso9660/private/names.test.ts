import { assignLevel1Ids, compareIds } from '../../../../src/seed/iso9660/private/names';
import type { TreeNode } from '../../../../src/seed/iso9660/private/tree';

const file = (name: string): TreeNode => ({ kind: 'file', name, path: name, content: new Uint8Array() });
const dir = (name: string): TreeNode => ({ kind: 'dir', name, path: name, children: new Map() });

describe('level-1 identifiers (ECMA-119 7.5, 7.6) and their order (9.3)', () => {
  it('GIVEN seed names WHEN mangled THEN they become upper-case 8.3 d-characters with ";1"', () => {
    const nodes = [file('meta-data'), file('meta_data.json'), dir('openstack')];
    expect([...assignLevel1Ids(nodes).values()].sort()).toEqual(['META_DAT.;1', 'META_DAT.JSO;1', 'OPENSTAC'].sort());
  });

  it('GIVEN names that mangle alike WHEN assigned THEN every identifier is unique', () => {
    const nodes = [file('meta-data'), file('meta_data'), file('META-DATA'), file('meta-data2')];
    const ids = [...assignLevel1Ids(nodes).values()];
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^[A-Z0-9_]{1,8}\.[A-Z0-9_]{0,3};1$/);
  });

  it('GIVEN the same names in another order WHEN assigned THEN each name gets the same identifier', () => {
    const a = [file('b-x'), file('b_x'), file('b.x')];
    const byName = (m: Map<TreeNode, string>) => Object.fromEntries([...m].map(([n, id]) => [n.name, id]));
    expect(byName(assignLevel1Ids(a))).toEqual(byName(assignLevel1Ids([...a].reverse())));
  });

  it('GIVEN "A.;1" and "A0.;1" WHEN compared THEN the shorter name, padded with spaces, sorts first', () => {
    expect(compareIds('A.;1', 'A0.;1')).toBeLessThan(0);
    expect(compareIds('AB.Z;1', 'AB.;1')).toBeGreaterThan(0);
  });
});
