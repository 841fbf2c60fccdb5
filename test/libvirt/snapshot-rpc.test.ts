/**
 * The domain snapshot procedures of RemoteLibvirtClient against an in-memory daemon: the procedure number and the
 * XDR of each `remote_domain_snapshot_*_args` struct the client sends, and the decoding of the `_ret` structs
 * (libvirt `src/remote/remote_protocol.x`).
 */
import { encodeRemoteError } from '../../src/libvirt/errors';
import { MessageStatus, type Packet } from '../../src/libvirt/packet';
import { RemoteProcedure, type DomRef, type SnapRef } from '../../src/libvirt/protocol';
import { RemoteLibvirtClient } from '../../src/libvirt/remote-client';
import { RpcConnection } from '../../src/libvirt/rpc';
import { XdrWriter } from '../../src/libvirt/xdr';
import { fakeDaemon, type FakeDaemon } from './helpers/fake-daemon';

const uuid = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
const dom: DomRef = { name: 'web1', uuid, id: 3 };
const snap: SnapRef = { name: 'before', dom };

/** remote_nonnull_domain as the client writes it. */
const domXdr = (w: XdrWriter): XdrWriter => w.string('web1').fixedOpaque(uuid, 16).int(3);
/** remote_nonnull_domain_snapshot: name, then the domain. */
const snapXdr = (w: XdrWriter, name = 'before'): XdrWriter => domXdr(w.string(name));

function clientWith(answer: (p: Packet, d: FakeDaemon) => void): { client: RemoteLibvirtClient; d: FakeDaemon } {
  const d = fakeDaemon();
  d.onPacket = (p) => answer(p, d);
  return { client: new RemoteLibvirtClient(new RpcConnection(d.socket, { keepaliveInterval: 0 })), d };
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('RemoteLibvirtClient domain snapshots', () => {
  it('GIVEN a snapshot XML WHEN created THEN DOMAIN_SNAPSHOT_CREATE_XML (185) carries dom, xml, flags and the reply is the snapshot', async () => {
    const { client, d } = clientWith((p, fake) => fake.reply(p, snapXdr(new XdrWriter()).finish()));
    const made = await client.domainSnapshotCreateXml(dom, '<domainsnapshot/>', 16);
    expect(d.received[0].header.procedure).toBe(RemoteProcedure.DOMAIN_SNAPSHOT_CREATE_XML);
    expect(RemoteProcedure.DOMAIN_SNAPSHOT_CREATE_XML).toBe(185);
    expect(hex(d.received[0].payload)).toBe(hex(domXdr(new XdrWriter()).string('<domainsnapshot/>').uint(16).finish()));
    expect(made).toEqual(snap);
  });

  it('GIVEN a name WHEN looked up THEN DOMAIN_SNAPSHOT_LOOKUP_BY_NAME (189) carries dom, name and flags 0', async () => {
    const { client, d } = clientWith((p, fake) => fake.reply(p, snapXdr(new XdrWriter()).finish()));
    expect(await client.domainSnapshotLookupByName(dom, 'before')).toEqual(snap);
    expect(d.received[0].header.procedure).toBe(189);
    expect(hex(d.received[0].payload)).toBe(hex(domXdr(new XdrWriter()).string('before').uint(0).finish()));
  });

  it('GIVEN no such snapshot WHEN looked up THEN it rejects with VIR_ERR_NO_DOMAIN_SNAPSHOT (72)', async () => {
    const err = encodeRemoteError({
      code: 72,
      domain: 10,
      level: 2,
      message: "Domain snapshot not found: no domain snapshot with matching name 'x'",
    });
    const { client } = clientWith((p, fake) => fake.reply(p, err, MessageStatus.Error));
    await expect(client.domainSnapshotLookupByName(dom, 'x')).rejects.toMatchObject({ code: 72 });
  });

  it('GIVEN a snapshot WHEN its XML is asked for THEN DOMAIN_SNAPSHOT_GET_XML_DESC (186) carries snap and flags', async () => {
    const { client, d } = clientWith((p, fake) => fake.reply(p, new XdrWriter().string('<domainsnapshot/>').finish()));
    expect(await client.domainSnapshotGetXmlDesc(snap, 1)).toBe('<domainsnapshot/>');
    expect(d.received[0].header.procedure).toBe(186);
    expect(hex(d.received[0].payload)).toBe(hex(snapXdr(new XdrWriter()).uint(1).finish()));
  });

  it('GIVEN two snapshots WHEN listed THEN DOMAIN_LIST_ALL_SNAPSHOTS (274) asks for results and decodes the array before its count', async () => {
    const reply = new XdrWriter().uint(2);
    snapXdr(reply, 'a');
    snapXdr(reply, 'b');
    const { client, d } = clientWith((p, fake) => fake.reply(p, reply.int(2).finish()));
    expect((await client.domainListAllSnapshots(dom, 1024)).map((s) => s.name)).toEqual(['a', 'b']);
    expect(d.received[0].header.procedure).toBe(274);
    expect(hex(d.received[0].payload)).toBe(hex(domXdr(new XdrWriter()).int(1).uint(1024).finish()));
  });

  it('GIVEN a domain WHEN its current snapshot is asked for THEN DOMAIN_SNAPSHOT_CURRENT (191) carries dom and flags 0', async () => {
    const { client, d } = clientWith((p, fake) => fake.reply(p, snapXdr(new XdrWriter()).finish()));
    expect(await client.domainSnapshotCurrent(dom)).toEqual(snap);
    expect(d.received[0].header.procedure).toBe(191);
    expect(hex(d.received[0].payload)).toBe(hex(domXdr(new XdrWriter()).uint(0).finish()));
  });

  it('GIVEN a snapshot WHEN reverted to THEN DOMAIN_REVERT_TO_SNAPSHOT (192) carries snap and flags, with an empty reply', async () => {
    const { client, d } = clientWith((p, fake) => fake.reply(p));
    await client.domainRevertToSnapshot(snap, 1);
    expect(d.received[0].header.procedure).toBe(192);
    expect(hex(d.received[0].payload)).toBe(hex(snapXdr(new XdrWriter()).uint(1).finish()));
  });

  it('GIVEN a snapshot WHEN deleted THEN DOMAIN_SNAPSHOT_DELETE (193) carries snap and flags, with an empty reply', async () => {
    const { client, d } = clientWith((p, fake) => fake.reply(p));
    await client.domainSnapshotDelete(snap, 2);
    expect(d.received[0].header.procedure).toBe(193);
    expect(hex(d.received[0].payload)).toBe(hex(snapXdr(new XdrWriter()).uint(2).finish()));
  });
});
