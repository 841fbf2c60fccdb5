/**
 * ReadResource of a domain (provider/src/resources/private/domain-read.ts) with a fake libvirt client: an unchanged
 * definition (same XML digest in the private state, references still there) is not parsed again, a changed one is,
 * and a shut-off domain is not asked whether it runs a second time.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { stateFromSpec } from '../../../provider/src/resources/private/domain-state';
import {
  privateAfterApply,
  READ_DIGEST_VERSION,
  refreshDomain,
  withoutReadDigest,
  xmlDigest,
} from '../../../provider/src/resources/private/domain-read';
import type { DomainState } from '../../../provider/src/resources/private/model';
import { diskState } from '../fixtures/domain';
import { parseDomainXml, renderDomainXml, type DomainSpec } from '../../../src/domain';
import { DOMAIN_FIELDS } from '../../../src/fields';
import {
  LibvirtError,
  VIR_DOMAIN_RUNNING,
  VIR_DOMAIN_SHUTOFF,
  VIR_ERR_NO_STORAGE_VOL,
  type DomRef,
  type LibvirtClient,
} from '../../../src/libvirt';

const SPEC: DomainSpec = { name: 'vstest-speed-read', memoryMiB: 64, vcpu: 1, type: 'qemu', disks: [], interfaces: [] };
const DOM: DomRef = { name: SPEC.name, uuid: Buffer.alloc(16), id: -1 };

/** A fake client describing `xml` as shut off (or running), with the volumes of `keys`; counts the calls made. */
function fakeClient(xml: string, options: { running?: boolean; keys?: string[] } = {}) {
  const calls: string[] = [];
  const client = {
    async domainGetXmlDesc() {
      calls.push('domainGetXmlDesc');
      return xml;
    },
    async domainGetState() {
      calls.push('domainGetState');
      return { state: options.running ? VIR_DOMAIN_RUNNING : VIR_DOMAIN_SHUTOFF, reason: 0 };
    },
    async domainGetAutostart() {
      calls.push('domainGetAutostart');
      return false;
    },
    async domainIsActive() {
      calls.push('domainIsActive');
      return options.running === true;
    },
    async domainInterfaceAddresses() {
      calls.push('domainInterfaceAddresses');
      return [];
    },
    async storageVolLookupByPath() {
      calls.push('storageVolLookupByPath');
      throw new LibvirtError(VIR_ERR_NO_STORAGE_VOL, 18, 2, 'no volume');
    },
    async storageVolLookupByKey(key: string) {
      calls.push('storageVolLookupByKey');
      if (!(options.keys ?? []).includes(key)) throw new LibvirtError(VIR_ERR_NO_STORAGE_VOL, 18, 2, 'no volume');
      return { pool: 'default', name: path.basename(key), key };
    },
  };
  return { client: client as unknown as LibvirtClient, calls };
}

const XML = renderDomainXml(SPEC);
/** The state a full read gives for XML (no references to look up). */
const parsed = (xml: string, running = false): DomainState => ({
  ...stateFromSpec(parseDomainXml(xml), running, { disks: [], ignitionId: null }),
  autostart: false,
  addresses: [],
  ip_address: null,
});

describe('refreshDomain', () => {
  it('GIVEN no private state WHEN read THEN the definition is parsed and its digest kept', async () => {
    const { client } = fakeClient(XML);
    const current = { ...parsed(XML), memory: 999 };
    const read = await refreshDomain(client, DOM, current, undefined);
    expect([read.state.memory, JSON.parse(read.private.toString()).xml]).toEqual([64, xmlDigest(XML)]);
  });

  it('GIVEN the digest of an unchanged definition WHEN read THEN it is not parsed: the state stays, libvirt asked once', async () => {
    // The state disagrees with the XML on purpose: a parse would put memory back to 64.
    const { client, calls } = fakeClient(XML);
    const current = { ...parsed(XML), memory: 999 };
    const priv = Buffer.from(JSON.stringify({ xml: xmlDigest(XML), other: 'kept' }));
    const read = await refreshDomain(client, DOM, current, priv);
    expect([read.state, JSON.parse(read.private.toString()), calls]).toEqual([
      current,
      { xml: xmlDigest(XML), other: 'kept' },
      ['domainGetXmlDesc', 'domainGetState', 'domainGetAutostart'],
    ]);
  });

  it('GIVEN the digest of an older definition WHEN the domain was changed outside Terraform THEN the change is read', async () => {
    const changed = renderDomainXml({ ...SPEC, memoryMiB: 128 });
    const { client } = fakeClient(changed);
    const read = await refreshDomain(client, DOM, parsed(XML), Buffer.from(JSON.stringify({ xml: xmlDigest(XML) })));
    expect([read.state.memory, JSON.parse(read.private.toString()).xml]).toEqual([128, xmlDigest(changed)]);
  });

  it('GIVEN an unchanged definition whose disk volume is gone WHEN read THEN it is parsed again', async () => {
    const withDisk: DomainSpec = {
      ...SPEC,
      disks: [{ source: { file: '/var/lib/x/disk.qcow2' }, target: 'vda', bus: 'virtio', device: 'disk' }],
    };
    const xml = renderDomainXml(withDisk);
    const { client, calls } = fakeClient(xml, { keys: [] });
    const current: DomainState = {
      ...parsed(xml),
      disk: [diskState({ volume_id: '/pool/gone', file: null, target: 'vda', bus: 'virtio', readonly: false })],
    };
    const read = await refreshDomain(client, DOM, current, Buffer.from(JSON.stringify({ xml: xmlDigest(xml) })));
    // Parsed: the disk is the XML's plain file again, not the state's vanished volume.
    expect([calls.includes('storageVolLookupByKey'), read.state.disk]).toEqual([
      true,
      [diskState({ volume_id: null, file: '/var/lib/x/disk.qcow2', target: 'vda', bus: 'virtio', readonly: false })],
    ]);
  });

  it('GIVEN a running domain WHEN read THEN its addresses are asked without asking again whether it runs', async () => {
    const { client, calls } = fakeClient(XML, { running: true });
    const read = await refreshDomain(client, DOM, parsed(XML), undefined);
    expect([read.state.running, calls.includes('domainIsActive'), calls.includes('domainInterfaceAddresses')]).toEqual([true, false, true]);
  });
});

describe('privateAfterApply', () => {
  const before = Buffer.from(JSON.stringify({ xml: 'digest of the XML before the apply', other: 'kept' }));

  it('GIVEN an applied state a parse of the new definition gives back WHEN the apply ends THEN the digest is kept', async () => {
    const { client } = fakeClient(XML);
    const priv = await privateAfterApply(client, DOM, parsed(XML), before);
    expect(JSON.parse(priv.toString())).toEqual({ xml: xmlDigest(XML), other: 'kept' });
  });

  it('GIVEN that digest WHEN the next plan reads THEN it does not parse: a later change is still read', async () => {
    const { client } = fakeClient(XML);
    const applied = parsed(XML);
    const priv = await privateAfterApply(client, DOM, applied, undefined);
    const changed = renderDomainXml({ ...SPEC, memoryMiB: 128 });
    const reads = [await refreshDomain(client, DOM, applied, priv), await refreshDomain(fakeClient(changed).client, DOM, applied, priv)];
    expect(reads.map((r) => r.state.memory)).toEqual([64, 128]);
  });

  it('GIVEN an applied state the definition does not give back WHEN the apply ends THEN no digest: the next read parses', async () => {
    const { client } = fakeClient(XML);
    const priv = await privateAfterApply(client, DOM, { ...parsed(XML), memory: 999 }, before);
    expect(JSON.parse(priv.toString())).toEqual({ other: 'kept' });
  });

  it('GIVEN a state without the attributes a parse reads as null WHEN the apply ends THEN the digest is kept', async () => {
    const { client } = fakeClient(XML);
    const nulls = Object.entries(parsed(XML)).filter(([, v]) => v === null);
    const sparse = Object.fromEntries(Object.entries(parsed(XML)).filter(([, v]) => v !== null)) as DomainState;
    const priv = await privateAfterApply(client, DOM, sparse, undefined);
    expect([nulls.length > 0, JSON.parse(priv.toString()).xml]).toEqual([true, xmlDigest(XML)]);
  });

  it('GIVEN libvirt failing the definition call WHEN the apply ends THEN no digest and no error', async () => {
    const { client } = fakeClient(XML);
    client.domainGetXmlDesc = () => Promise.reject(new LibvirtError(42, 10, 2, 'no domain'));
    expect((await privateAfterApply(client, DOM, parsed(XML), undefined)).length).toBe(0);
  });
});

describe('withoutReadDigest', () => {
  it('GIVEN a private state with a digest and other keys WHEN applied THEN only the digest is dropped', () => {
    const priv = Buffer.from(JSON.stringify({ xml: 'd', other: 1 }));
    expect([JSON.parse(withoutReadDigest(priv).toString()), withoutReadDigest(Buffer.from('{"xml":"d"}')).length]).toEqual([
      { other: 1 },
      0,
    ]);
  });
});

describe('READ_DIGEST_VERSION', () => {
  // The state read from libvirt's own dumpxml fixture, hashed, per digest version and schema (the digest's salt is
  // both: xmlDigest). When the hash changes with the same schema (parsing or the state mapping changed), digests
  // kept by earlier reads must stop matching: bump READ_DIGEST_VERSION, then record the new hash. A new attribute
  // changes the schema, and so the salt, by itself: record the hash under the new schema, no bump.
  const RECORDED: Record<string, string> = {
    1: '88263c874f3983fe89e955f2702e5f629ed5f28c1be4364830f34d6a0823a4c0',
    2: 'fbbf02eb96dde37dabe0264b670895f45f40ce4cfc49c80e960248aeadb3c031', // max_memory, max_vcpu (issue 20)
    3: '4b0f9e267a60189b2bda09f20c0587fdab602dd96f496f825334fa4bf9477998', // devices and settings (issue 22)
    4: 'ffe2ec78d3ba8bb2b352e4ff114de21c3030c4e20efa220834a2c7dc0ff04d2b', // devices with host, anti_affinity (issues 22, 23)
    5: '6223273f03ddd45de01b27a6817a93eaf6d1de8c194505264141eddab425e83c', // devices, host, anti_affinity, snapshot_before, snapshot_keep (issues 21, 22, 23)
    '5:e1ae83680af4': 'adca3bf2178e504d4e774fedfff29b52374af1c1ae29335f92c269c352a1dbe7', // disk rotation_rate (issue 34)
    '5:4106d26596ce': 'adca3bf2178e504d4e774fedfff29b52374af1c1ae29335f92c269c352a1dbe7', // rotation_rate with the console_log and snapshot descriptions of issue 31
    // and graphics password_wo, password_keyed_digest (issue 32); the hash re-recorded when the NIC options came from
    // NIC_OPTIONS (issue 34): their keys in another order, the same state key by key (compared with sorted keys)
    '5:4d9967be70af': 'c32c7a1edcff566495786418dbf26b7fa79a8140d9eb6bff5a824759d8af8025',
  };
  it('GIVEN the fixture XML WHEN read as state THEN the mapping is the one recorded for this digest version and schema', () => {
    const xml = fs.readFileSync(path.join(__dirname, '..', '..', 'domain', 'fixtures', 'libvirt-9.0-dumpxml.xml'), 'utf8');
    const state = stateFromSpec(parseDomainXml(xml), false, { disks: [], ignitionId: null });
    const hash = createHash('sha256').update(JSON.stringify(state)).digest('hex');
    const schema = createHash('sha256').update(JSON.stringify(DOMAIN_FIELDS)).digest('hex').slice(0, 12);
    const key = `${READ_DIGEST_VERSION}:${schema}`;
    expect({ key, hash }).toEqual({ key, hash: RECORDED[key] });
  });
});
