import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseSnapshotXml, renderSnapshotRequest, withSnapshotDescription } from '../../src/snapshot';

const fixture = (name: string): string => fs.readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');

describe('renderSnapshotRequest', () => {
  it('GIVEN a name and a description with markup WHEN rendered THEN both are escaped elements of <domainsnapshot>', () => {
    expect(renderSnapshotRequest({ name: 'before-1', description: 'a < b & "c"' })).toBe(
      '<domainsnapshot><name>before-1</name><description>a &lt; b &amp; &quot;c&quot;</description></domainsnapshot>',
    );
  });

  it('GIVEN no description WHEN rendered THEN the request has the name only', () => {
    expect(renderSnapshotRequest({ name: 's' })).toBe('<domainsnapshot><name>s</name></domainsnapshot>');
  });
});

describe('withSnapshotDescription', () => {
  it('GIVEN a snapshot with a description WHEN replaced THEN the new one is read back and the domain keeps its own', () => {
    const xml = withSnapshotDescription(fixture('shutoff.xml'), 'after & all');
    expect(parseSnapshotXml(xml).description).toBe('after & all');
    expect(xml).toContain('<description>the domain&apos;s own description</description>');
  });

  it('GIVEN a snapshot without a description WHEN one is set THEN it follows <name>', () => {
    const xml = withSnapshotDescription(fixture('running.xml'), 'now');
    expect(xml.startsWith('<domainsnapshot>\n  <name>run</name>\n  <description>now</description>\n  <state>')).toBe(true);
  });

  it('GIVEN a snapshot with a description WHEN it is removed THEN none is read back and the rest is unchanged', () => {
    const original = fixture('shutoff.xml');
    const xml = withSnapshotDescription(original, null);
    expect(parseSnapshotXml(xml).description).toBeUndefined();
    expect(xml).toBe(original.replace(/ {2}<description>before[^\n]*\n/, ''));
  });

  it('GIVEN a document that is no snapshot WHEN given a description THEN it throws', () => {
    expect(() => withSnapshotDescription('<domain><name>x</name></domain>', 'd')).toThrow('not a <domainsnapshot> document');
  });
});
