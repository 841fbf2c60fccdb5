/**
 * The checks of ./devices/model.ts's devices and settings, for ./validate.ts `validateDomainSpec`: what libvirt 9.0 or
 * QEMU would refuse at define or start (or silently change), with paths in the spec's own keys. Pure.
 */
import { error, type AttributePath, type Diagnostic } from '../diagnostics';
import { BOOT_DEVICES, DOMAIN_FIELDS, valuesOf } from '../fields';
import { isIp } from '../ip';
import { validateDeviceOptions } from './device-options';
import { extraDevicesDiagnostics } from './escape-hatch';
import type { DomainInterface, DomainSpec } from './model';
import type { DomainBandwidthLimit, DomainChannel, DomainCharSource } from './model';

const CONTROL_RE = /[\u0000-\u001f\u007f]/;
const TEXT_CONTROL_RE = /[\u0000-\u0008\u000b-\u001f\u007f]/;
const CHANNEL_NAME_RE = /^[A-Za-z0-9._-]+$/;
/** QEMU's VNC authentication takes at most 8 characters of a password (VNC's DES key); more would be cut. */
const VNC_PASSWORD_MAX = 8;

/** The allowed values of the domain's fields: the table's own (src/fields/domain.ts), never spelled again here. */
const F = DOMAIN_FIELDS.fields;
/** libvirt's QEMU state directory (qemu:///system): a VNC socket path under it counts as libvirt's own. */
const LIBVIRT_QEMU_STATE_DIR = '/var/lib/libvirt/qemu/';
const GRAPHICS_TYPES = valuesOf(F.graphics.fields.type);
const VIDEO_MODELS = valuesOf(F.video);
const CRASH_ACTIONS = valuesOf(F.on_crash);
const DIRECT_MODES = valuesOf(F.network_interface.fields.direct_mode);

const quoted = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

function isWhole(v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

function checkAbsolutePath(path: AttributePath, value: unknown, what: string, out: Diagnostic[]): void {
  if (typeof value !== 'string' || !value.startsWith('/') || CONTROL_RE.test(value))
    out.push(error(path, `Invalid ${what}`, `Got ${JSON.stringify(value)}; expected an absolute path on the libvirt host.`));
}

function checkWhole(path: AttributePath, value: unknown, min: number, max: number, what: string, out: Diagnostic[]): void {
  if (!isWhole(value, min, max))
    out.push(error(path, `Invalid ${what}`, `Got ${JSON.stringify(value)}; expected a whole number from ${min} to ${max}.`));
}

function checkOneOf(path: AttributePath, value: unknown, values: readonly string[], what: string, out: Diagnostic[]): void {
  if (typeof value !== 'string' || !values.includes(value))
    out.push(error(path, `Invalid ${what}`, `Got ${JSON.stringify(value)}; expected one of ${quoted(values)}.`));
}

/** Every problem of the spec's devices and settings (none when it has none of them). */
export function validateDevices(spec: DomainSpec, out: Diagnostic[]): void {
  validateSettings(spec, out);
  validateGraphics(spec, out);
  if (spec.video) checkOneOf(['video', 'model'], spec.video.model, VIDEO_MODELS, 'video model', out);
  validateFilesystems(spec, out);
  validateDeviceOptions(spec, spec.secureBoot === true, out);
  (spec.serials ?? []).forEach((s, i) => validateCharSource(['serials', i, 'source'], s.source, out));
  (spec.consoles ?? []).forEach((c, i) => validateCharSource(['consoles', i, 'source'], c.source, out));
  validateChannels(spec.channels ?? [], out);
  validateHostdevs(spec, out);
  if (spec.extraDevices !== undefined) out.push(...extraDevicesDiagnostics(spec.extraDevices, ['extraDevices']));
}

function validateSettings(spec: DomainSpec, out: Diagnostic[]): void {
  if (spec.title !== undefined && (typeof spec.title !== 'string' || spec.title === '' || CONTROL_RE.test(spec.title)))
    out.push(error(['title'], 'Invalid title', 'A title is one line of text: no newlines or other control characters.'));
  if (spec.description !== undefined && (typeof spec.description !== 'string' || TEXT_CONTROL_RE.test(spec.description)))
    out.push(error(['description'], 'Invalid description', 'Only tab and newline are allowed among control characters.'));
  for (const [key, value] of Object.entries(spec.userMetadata ?? {})) {
    if (key === '' || CONTROL_RE.test(key) || typeof value !== 'string' || TEXT_CONTROL_RE.test(value))
      out.push(
        error(
          ['userMetadata', key],
          'Invalid metadata entry',
          'Keys must be non-empty without control characters; values strings with only tab and newline among control characters.',
        ),
      );
  }
  if (spec.memoryBacking && (spec.memoryBacking.source !== 'memfd' || spec.memoryBacking.access !== 'shared'))
    out.push(
      error(['memoryBacking'], 'Invalid memory backing', "Only shared memfd memory is supported: { source: 'memfd', access: 'shared' }."),
    );
  const t = spec.cpuTopology;
  if (t) {
    const max = spec.maxVcpu ?? spec.vcpu;
    const product = t.sockets * (t.dies ?? F.cpu_topology.fields.dies.default) * t.cores * t.threads;
    if (Number.isFinite(product) && product !== max)
      out.push(
        error(
          ['cpuTopology'],
          'CPU topology does not match the vCPUs',
          `sockets × dies × cores × threads is ${product}, but the domain has ${max} vCPUs at most (the maximum vCPU count); libvirt needs them equal.`,
        ),
      );
  }
  if (spec.bootDevices !== undefined) {
    if (!Array.isArray(spec.bootDevices) || spec.bootDevices.length === 0)
      out.push(
        error(
          ['bootDevices'],
          'No boot device',
          `Give at least one of ${quoted(BOOT_DEVICES)}, or leave it out to boot from the first disk.`,
        ),
      );
    (spec.bootDevices ?? []).forEach((d, i) => {
      checkOneOf(['bootDevices', i], d, BOOT_DEVICES, 'boot device', out);
      if (spec.bootDevices?.indexOf(d) !== i) out.push(error(['bootDevices', i], 'Duplicate boot device', `'${d}' is listed twice.`));
    });
    if (spec.os?.kernel !== undefined)
      out.push(
        error(
          ['bootDevices'],
          'Boot order with direct kernel boot',
          'A domain that boots a kernel directly has no boot order; drop one of them.',
        ),
      );
  }
  if (spec.bootMenu?.timeoutMs !== undefined)
    checkWhole(['bootMenu', 'timeoutMs'], spec.bootMenu.timeoutMs, 0, 65535, 'boot menu timeout', out);
  if (spec.onPoweroff !== undefined) checkOneOf(['onPoweroff'], spec.onPoweroff, ['destroy', 'restart'], 'on_poweroff action', out);
  if (spec.onReboot !== undefined) checkOneOf(['onReboot'], spec.onReboot, ['destroy', 'restart'], 'on_reboot action', out);
  if (spec.onCrash !== undefined) checkOneOf(['onCrash'], spec.onCrash, CRASH_ACTIONS, 'on_crash action', out);
  if (spec.onReboot === 'destroy' && spec.onPoweroff === 'restart')
    out.push(
      error(
        ['onPoweroff'],
        'Unsupported lifecycle combination',
        "QEMU cannot restart on power-off while it powers off on reboot (on_reboot = 'destroy'); change one of them.",
      ),
    );
}

function validateGraphics(spec: DomainSpec, out: Diagnostic[]): void {
  const types = new Map<string, number>();
  const ports = new Map<number, number>();
  (spec.graphics ?? []).forEach((g, i) => {
    const path: AttributePath = ['graphics', i];
    checkOneOf([...path, 'type'], g.type, GRAPHICS_TYPES, 'graphics type', out);
    const first = types.get(g.type);
    if (first !== undefined)
      out.push(
        error([...path, 'type'], 'Duplicate graphics type', `graphics[${first}] is ${g.type} already; libvirt takes one of each type.`),
      );
    else types.set(g.type, i);
    if (g.listen?.type === 'address') {
      if (!isIp(g.listen.address))
        out.push(
          error(
            [...path, 'listen'],
            'Invalid listen address',
            `Got ${JSON.stringify(g.listen.address)}; expected an IP address such as '127.0.0.1'.`,
          ),
        );
    } else if (g.listen?.type === 'socket') {
      checkAbsolutePath([...path, 'socket'], g.listen.socket, 'socket path', out);
      if (g.type === 'vnc' && typeof g.listen.socket === 'string' && g.listen.socket.startsWith(LIBVIRT_QEMU_STATE_DIR))
        out.push(
          error(
            [...path, 'socket'],
            "VNC socket in libvirt's own directory",
            `Got ${JSON.stringify(g.listen.socket)}; libvirt 9.0 takes a VNC socket under ${LIBVIRT_QEMU_STATE_DIR} for one it made itself and drops it from the definition (the display then listens on a TCP port). Expected a path in another directory QEMU may write, e.g. /run/vnc/<domain>.sock.`,
          ),
        );
      if (g.port !== undefined)
        out.push(error([...path, 'port'], 'Port with a socket', 'A display on a unix socket has no TCP port; drop the port.'));
    } else {
      out.push(error([...path, 'listen'], 'Invalid listener', "Give { type: 'address', address } or { type: 'socket', socket }."));
    }
    if (g.port !== undefined) {
      checkWhole([...path, 'port'], g.port, 5900, 65535, 'display port', out);
      const other = ports.get(g.port);
      if (other !== undefined)
        out.push(error([...path, 'port'], 'Duplicate display port', `graphics[${other}] listens on ${g.port} already.`));
      ports.set(g.port, i);
    }
    if (g.password !== undefined) {
      if (typeof g.password !== 'string' || g.password === '' || CONTROL_RE.test(g.password))
        out.push(error([...path, 'password'], 'Invalid display password', 'A password is non-empty text without control characters.'));
      else if (g.type === 'vnc' && g.password.length > VNC_PASSWORD_MAX)
        out.push(
          error(
            [...path, 'password'],
            'VNC password too long',
            `A VNC password has at most ${VNC_PASSWORD_MAX} characters (VNC authentication uses no more); got ${g.password.length}.`,
          ),
        );
    }
  });
}

function validateFilesystems(spec: DomainSpec, out: Diagnostic[]): void {
  const targets = new Map<string, number>();
  (spec.filesystems ?? []).forEach((f, i) => {
    const path: AttributePath = ['filesystems', i];
    checkOneOf([...path, 'driver'], f.driver, ['virtiofs', '9p'], 'filesystem driver', out);
    checkAbsolutePath([...path, 'source'], f.source, 'shared directory', out);
    if (typeof f.target !== 'string' || f.target === '' || CONTROL_RE.test(f.target) || f.target.length > 36)
      out.push(
        error(
          [...path, 'target'],
          'Invalid mount tag',
          `Got ${JSON.stringify(f.target)}; expected a tag of 1 to 36 characters (the guest mounts it by this name).`,
        ),
      );
    const first = targets.get(f.target);
    if (first !== undefined)
      out.push(error([...path, 'target'], 'Duplicate mount tag', `filesystems[${first}] uses '${f.target}' already.`));
    targets.set(f.target, i);
    if (f.driver === '9p' && f.accessMode !== undefined)
      checkOneOf([...path, 'accessMode'], f.accessMode, ['passthrough', 'mapped', 'squash'], 'access mode', out);
    if (f.driver === 'virtiofs' && !spec.memoryBacking)
      out.push(
        error(
          [...path, 'driver'],
          'virtiofs needs shared memory',
          "virtiofsd maps the guest's memory: give the domain memoryBacking { source: 'memfd', access: 'shared' }.",
        ),
      );
  });
}

function validateCharSource(path: AttributePath, s: DomainCharSource, out: Diagnostic[]): void {
  checkOneOf([...path, 'type'], s.type, ['pty', 'file', 'unix', 'tcp'], 'character device type', out);
  if (s.type === 'file') checkAbsolutePath([...path, 'path'], s.path, 'file path', out);
  if (s.type === 'unix' && s.path !== undefined) checkAbsolutePath([...path, 'path'], s.path, 'socket path', out);
  if (s.type === 'unix' && s.path === undefined && path[0] !== 'channels')
    out.push(error([...path, 'path'], 'Missing socket path', 'A serial port or console on a unix socket needs the socket path.'));
  if (s.type === 'tcp') {
    if (!isIp(s.host))
      out.push(
        error([...path, 'host'], 'Invalid listen address', `Got ${JSON.stringify(s.host)}; expected an IP address such as '127.0.0.1'.`),
      );
    checkWhole([...path, 'port'], s.port, 1, 65535, 'TCP port', out);
  }
}

function validateChannels(channels: DomainChannel[], out: Diagnostic[]): void {
  const names = new Map<string, number>();
  channels.forEach((c, i) => {
    const path: AttributePath = ['channels', i];
    if (typeof c.name !== 'string' || !CHANNEL_NAME_RE.test(c.name) || c.name === 'org.qemu.guest_agent.0')
      out.push(
        error(
          [...path, 'name'],
          'Invalid channel name',
          `Got ${JSON.stringify(c.name)}; expected a port name of letters, digits, '.', '_' and '-', e.g. 'org.example.port.0' (the guest agent's channel is qemuAgent).`,
        ),
      );
    const first = names.get(c.name);
    if (first !== undefined)
      out.push(error([...path, 'name'], 'Duplicate channel name', `channels[${first}] is named '${c.name}' already.`));
    names.set(c.name, i);
    checkOneOf([...path, 'source', 'type'], c.source.type, ['unix', 'pty', 'spicevmc'], 'channel type', out);
    if (c.source.type === 'unix' && c.source.path !== undefined)
      checkAbsolutePath([...path, 'source', 'path'], c.source.path, 'socket path', out);
  });
}

function validateHostdevs(spec: DomainSpec, out: Diagnostic[]): void {
  const seen = new Map<string, number>();
  (spec.hostdevs ?? []).forEach((h, i) => {
    const path: AttributePath = ['hostdevs', i];
    checkOneOf([...path, 'type'], h.type, ['pci', 'usb'], 'host device type', out);
    let key: string;
    if (h.type === 'pci') {
      const { domain, bus, slot, function: fn } = h.address;
      const ok = isWhole(domain, 0, 0xffff) && isWhole(bus, 0, 0xff) && isWhole(slot, 0, 0x1f) && isWhole(fn, 0, 7);
      if (!ok)
        out.push(
          error(
            [...path, 'address'],
            'Invalid PCI address',
            'Expected domain 0–0xffff, bus 0–0xff, slot 0–0x1f and function 0–7, e.g. 0000:01:00.0.',
          ),
        );
      key = `pci ${domain}:${bus}:${slot}.${fn}`;
    } else {
      checkWhole([...path, 'bus'], h.bus, 0, 255, 'USB bus', out);
      checkWhole([...path, 'device'], h.device, 1, 127, 'USB device number', out);
      key = `usb ${h.bus}:${h.device}`;
    }
    const first = seen.get(key);
    if (first !== undefined) out.push(error(path, 'Duplicate host device', `hostdevs[${first}] passes the same device through already.`));
    seen.set(key, i);
  });
}

/** A disk's driver options and serial (for ../validate.ts's disk loop). */
function checkLimit(path: AttributePath, l: DomainBandwidthLimit | undefined, out: Diagnostic[]): void {
  if (!l) return;
  checkWhole([...path, 'average'], l.average, 1, 2 ** 32 - 1, 'average rate', out);
  if (l.peak !== undefined) checkWhole([...path, 'peak'], l.peak, 1, 2 ** 32 - 1, 'peak rate', out);
  if (l.burst !== undefined) checkWhole([...path, 'burst'], l.burst, 1, 2 ** 32 - 1, 'burst size', out);
}

/** A NIC's bandwidth and macvtap settings (for ../validate.ts's interface loop; its options: ./nic-options.ts). */
export function validateInterfaceOptions(iface: DomainInterface, path: AttributePath, out: Diagnostic[]): void {
  if (iface.bandwidth !== undefined) {
    if (iface.type === 'user')
      out.push(
        error(
          [...path, 'bandwidth'],
          'Bandwidth on a user-mode NIC',
          'libvirt limits bandwidth on tap and macvtap devices; user-mode networking has none.',
        ),
      );
    checkLimit([...path, 'bandwidth', 'inbound'], iface.bandwidth.inbound, out);
    checkLimit([...path, 'bandwidth', 'outbound'], iface.bandwidth.outbound, out);
  }
  if (iface.type === 'direct') {
    if (typeof iface.dev !== 'string' || !/^[A-Za-z0-9._-]{1,15}$/.test(iface.dev))
      out.push(
        error([...path, 'dev'], 'Invalid host interface', `Got ${JSON.stringify(iface.dev)}; expected a host NIC name such as 'eth0'.`),
      );
    checkOneOf([...path, 'mode'], iface.mode, DIRECT_MODES, 'macvtap mode', out);
  }
}
