/**
 * Network procedures and guest-address lookups of the remote client against the real libvirtd at qemu:///system.
 * Everything created is named `vstest-net-rpc…` and removed in afterAll. No guest is started.
 */
import {
  LibvirtError,
  NetRef,
  RemoteLibvirtClient,
  VIR_ERR_NO_NETWORK,
  VIR_NETWORK_SECTION_DNS_HOST,
  VIR_NETWORK_SECTION_IP_DHCP_HOST,
  VIR_NETWORK_UPDATE_AFFECT_CONFIG,
  VIR_NETWORK_UPDATE_AFFECT_LIVE,
  VIR_NETWORK_UPDATE_COMMAND_ADD_LAST,
  VIR_NETWORK_UPDATE_COMMAND_DELETE,
  VIR_NETWORK_XML_INACTIVE,
  bytesToUuid,
  connect,
} from '../../src/libvirt';
import { agentConnected, domainAddresses } from '../../provider/src/resources/private/addresses';

jest.setTimeout(60_000);

const NET = 'vstest-net-rpc';
const DOMAIN = 'vstest-net-rpc-domain';
const NET_XML = `<network><name>${NET}</name><bridge name='vsnetrpc0'/><domain name='rpc.test'/>
  <ip address='10.213.41.1' netmask='255.255.255.0'><dhcp><range start='10.213.41.100' end='10.213.41.150'/></dhcp></ip></network>`;

async function cleanUp(c: RemoteLibvirtClient): Promise<void> {
  for (const f of [
    async () => c.domainUndefine(await c.domainLookupByName(DOMAIN)),
    async () => c.networkDestroy(await c.networkLookupByName(NET)),
    async () => c.networkUndefine(await c.networkLookupByName(NET)),
  ]) {
    try {
      await f();
    } catch (e) {
      if (!(e instanceof LibvirtError)) throw e;
    }
  }
}

describe('networks over the remote protocol', () => {
  let client: RemoteLibvirtClient;
  let net: NetRef;

  beforeAll(async () => {
    client = await connect('qemu:///system');
    await cleanUp(client);
  });
  afterAll(async () => {
    await cleanUp(client);
    await client.close();
  });

  it('defines, starts, lists and looks up a network', async () => {
    net = await client.networkDefineXml(NET_XML);
    expect(net.name).toBe(NET);
    expect(await client.networkIsActive(net)).toBe(false);
    await client.networkCreate(net);
    expect(await client.networkIsActive(net)).toBe(true);
    expect((await client.networkLookupByUuid(net.uuid)).name).toBe(NET);
    expect(bytesToUuid((await client.networkLookupByName(NET)).uuid)).toBe(bytesToUuid(net.uuid));
    expect((await client.connectListAllNetworks()).map((n) => n.name)).toContain(NET);
    expect(await client.networkGetXmlDesc(net)).toContain("<range start='10.213.41.100' end='10.213.41.150'");
  });

  it('sets autostart', async () => {
    await client.networkSetAutostart(net, true);
    expect(await client.networkGetAutostart(net)).toBe(true);
    await client.networkSetAutostart(net, false);
    expect(await client.networkGetAutostart(net)).toBe(false);
  });

  it('adds and deletes a static DHCP host and a DNS host live and in the definition', async () => {
    const host = "<host mac='52:54:00:aa:bb:01' name='web1' ip='10.213.41.10'/>";
    const flags = VIR_NETWORK_UPDATE_AFFECT_LIVE | VIR_NETWORK_UPDATE_AFFECT_CONFIG;
    await client.networkUpdate(net, VIR_NETWORK_UPDATE_COMMAND_ADD_LAST, VIR_NETWORK_SECTION_IP_DHCP_HOST, -1, host, flags);
    await client.networkUpdate(
      net,
      VIR_NETWORK_UPDATE_COMMAND_ADD_LAST,
      VIR_NETWORK_SECTION_DNS_HOST,
      -1,
      "<host ip='10.213.41.20'><hostname>db</hostname></host>",
      flags,
    );
    for (const xml of [await client.networkGetXmlDesc(net), await client.networkGetXmlDesc(net, VIR_NETWORK_XML_INACTIVE)]) {
      expect(xml).toContain("<host mac='52:54:00:aa:bb:01' name='web1' ip='10.213.41.10'/>");
      expect(xml).toContain('<hostname>db</hostname>');
    }
    await client.networkUpdate(net, VIR_NETWORK_UPDATE_COMMAND_DELETE, VIR_NETWORK_SECTION_IP_DHCP_HOST, -1, host, flags);
    expect(await client.networkGetXmlDesc(net, VIR_NETWORK_XML_INACTIVE)).not.toContain('web1');
  });

  it('lists DHCP leases (none without guests)', async () => {
    expect(await client.networkGetDhcpLeases(net)).toEqual([]);
    expect(await client.networkGetDhcpLeases(net, '52:54:00:aa:bb:01')).toEqual([]);
  });

  it('gives no addresses for a domain that is not running, without waiting', async () => {
    const dom = await client.domainDefineXml(`<domain type='qemu'><name>${DOMAIN}</name><memory unit='MiB'>64</memory>
      <os><type arch='x86_64'>hvm</type></os><devices><interface type='network'><source network='${NET}'/>
      <mac address='52:54:00:aa:bb:02'/></interface></devices></domain>`);
    expect(await domainAddresses(client, dom, { agent: true })).toEqual([]);
  });

  it('reads whether the guest agent channel is connected from live domain XML', () => {
    const channel = (state: string) => `<domain><devices><channel type='unix'><source mode='bind'/>
      <target type='virtio' name='org.qemu.guest_agent.0'${state}/></channel></devices></domain>`;
    expect(agentConnected(channel(" state='connected'"))).toBe(true);
    expect(agentConnected(channel(" state='disconnected'"))).toBe(false);
    expect(agentConnected(channel(''))).toBe(false);
    expect(agentConnected('<domain><devices/></domain>')).toBe(false);
  });

  it('stops and removes the network; lookups then fail with VIR_ERR_NO_NETWORK', async () => {
    await client.networkDestroy(net);
    await client.networkUndefine(net);
    await expect(client.networkLookupByName(NET)).rejects.toMatchObject({ code: VIR_ERR_NO_NETWORK });
  });
});
