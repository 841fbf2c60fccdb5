/**
 * The life of a `virtseed_domain` in libvirt: define from the state, start (and wait per `wait_for`), clean
 * shutdown bounded by `shutdown_timeout` then power-off, and removal. The handler (../domain.ts) decides what to do
 * (./domain-changes.ts); this module does it.
 */
import { Diagnostic, error, warning } from '../../../../src/diagnostics';
import { keepDeviceAddresses, type DomainSpec } from '../../../../src/domain';
import {
  VIR_DOMAIN_AFFECT_LIVE,
  VIR_DOMAIN_DEFINE_VALIDATE,
  VIR_DOMAIN_UNDEFINE_TPM,
  VIR_DOMAIN_XML_INACTIVE,
} from '../../../../src/libvirt';
import { usesEscapeHatch, xsltOf } from './domain-devices';
import { finalDomainXml, setVirtseedEntries, virtseedEntries } from './domain-escape';
import { DOMAIN_FIELDS } from '../../../../src/fields';
import {
  LibvirtError,
  VIR_DOMAIN_BLOCKED,
  VIR_DOMAIN_PAUSED,
  VIR_DOMAIN_RUNNING,
  VIR_DOMAIN_SHUTOFF,
  VIR_DOMAIN_UNDEFINE_CHECKPOINTS_METADATA,
  VIR_DOMAIN_UNDEFINE_MANAGED_SAVE,
  VIR_DOMAIN_UNDEFINE_NVRAM,
  VIR_DOMAIN_UNDEFINE_SNAPSHOTS_METADATA,
  VIR_DOMAIN_SHUTDOWN_ACPI_POWER_BTN,
  VIR_DOMAIN_SHUTDOWN_GUEST_AGENT,
  type DomRef,
  type LibvirtClient,
} from '../../../../src/libvirt';
import type { HandlerContext } from '../../handler';
import { agentConnected } from './addresses';
import { resolveRefs } from './domain-refs';
import { toDomainSpec, type ResolvedRefs } from './domain-state';
import { libVersionOf } from './lib-version';
import { domainByUuid, volumeByName, volumeByPath } from './lookups';
import { releaseVolumes, usedSources } from './release';
import type { DomainState } from './model';
import { messageOf, num, str } from './values';
import { leaseDiagnostics, startAndWait, startAndWaitForLease, waitDiagnostics } from './wait-for';

/**
 * Metadata key set while a domain is being created (defined, started) and removed once that finished: a domain of
 * the wanted name that still carries it was left by an interrupted create (libvirtd or the provider killed, the
 * connection dropped) and is replaced instead of reported as someone else's.
 *
 * A create that fails after the define (the wait failed or timed out, StopProvider interrupted it, the connection
 * was lost) keeps the mark: Terraform records the domain tainted, and plans a tainted object like a new one —
 * PlanResourceChange with no prior state (checked with TF_LOG=trace on Terraform 1.11: `plan`, `apply`, and the
 * refresh of `destroy` all call it so), turned into a replacement by Terraform itself. That call's "name taken"
 * check only passes because the domain still carries the mark; the create half of the replacement then removes it.
 */
export const CREATE_PENDING_KEY = 'virtseed-create-pending';

/**
 * Removes the create-pending mark from the running domain (its live XML): a define after the create changed only
 * the persistent definition, and the live one kept the mark it was started with. No-op when the live XML has none.
 */
export async function clearLivePendingMark(client: LibvirtClient, dom: DomRef): Promise<void> {
  const entries = virtseedEntries(await client.domainGetXmlDesc(dom, 0));
  if (!(CREATE_PENDING_KEY in entries)) return;
  const { [CREATE_PENDING_KEY]: _pending, ...rest } = entries;
  await setVirtseedEntries(client, dom, rest, VIR_DOMAIN_AFFECT_LIVE);
}

/** True for the libvirt domain states in which the guest runs (running, paused, blocked). */
export function isActive(state: number): boolean {
  return state === VIR_DOMAIN_RUNNING || state === VIR_DOMAIN_PAUSED || state === VIR_DOMAIN_BLOCKED;
}

/** Waits `ms`, or less when `signal` aborts (the listener is removed either way). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** How a guest was stopped: asked through the guest agent or by ACPI, and whether it had to be powered off. */
export interface StopResult {
  /** `off` once the domain is shut off; `interrupted` when StopProvider aborted the wait (the guest runs on). */
  readonly state: 'off' | 'interrupted';
  /** How the guest was asked: `agent` (qemu-guest-agent), `acpi` (the power button), or `none` (it was off). */
  readonly asked: 'agent' | 'acpi' | 'none';
  /** True when it did not shut down within the timeout and was powered off. */
  readonly poweredOff: boolean;
  /** Seconds from the request until the domain was off. */
  readonly seconds: number;
}

/**
 * Graceful shutdown: through the QEMU guest agent when the domain has its channel and an agent is connected
 * (virDomainShutdownFlags VIR_DOMAIN_SHUTDOWN_GUEST_AGENT), else ACPI (the power button); power off after
 * `timeoutS` when the guest is still running. Resolves as soon as `ctx.signal` aborts (StopProvider), leaving the
 * guest as it is.
 */
export async function stopGuest(
  client: LibvirtClient,
  dom: DomRef,
  timeoutS: number,
  ctx: HandlerContext<LibvirtClient>,
): Promise<StopResult> {
  if (!isActive((await client.domainGetState(dom)).state)) return { state: 'off', asked: 'none', poweredOff: false, seconds: 0 };
  if (ctx.signal.aborted) return { state: 'interrupted', asked: 'none', poweredOff: false, seconds: 0 };
  const started = Date.now();
  const deadline = started + timeoutS * 1000;
  const seconds = () => Math.round((Date.now() - started) / 1000);
  const liveXml = await client.domainGetXmlDesc(dom, 0).catch(() => '');
  const asked = agentConnected(liveXml) ? 'agent' : 'acpi';
  try {
    await client.domainShutdownFlags(dom, asked === 'agent' ? VIR_DOMAIN_SHUTDOWN_GUEST_AGENT : VIR_DOMAIN_SHUTDOWN_ACPI_POWER_BTN);
  } catch (err) {
    ctx.log.warn(`domain ${dom.name}: shutdown request failed (${messageOf(err)}); powering off`);
  }
  while (Date.now() < deadline && !ctx.signal.aborted) {
    if ((await client.domainGetState(dom)).state === VIR_DOMAIN_SHUTOFF)
      return { state: 'off', asked, poweredOff: false, seconds: seconds() };
    await sleep(500, ctx.signal);
  }
  if (ctx.signal.aborted) return { state: 'interrupted', asked, poweredOff: false, seconds: seconds() };
  if ((await client.domainGetState(dom)).state === VIR_DOMAIN_SHUTOFF)
    return { state: 'off', asked, poweredOff: false, seconds: seconds() };
  ctx.log.info(`domain ${dom.name}: no clean shutdown within ${timeoutS} s; powering off`);
  await client.domainDestroy(dom).catch((err) => {
    if (!(err instanceof LibvirtError)) throw err;
  });
  return { state: 'off', asked, poweredOff: true, seconds: seconds() };
}

/** stopGuest's outcome alone: `'off'`, or `'interrupted'` when StopProvider aborted the wait. */
export async function stopDomain(
  client: LibvirtClient,
  dom: DomRef,
  timeoutS: number,
  ctx: HandlerContext<LibvirtClient>,
): Promise<'off' | 'interrupted'> {
  return (await stopGuest(client, dom, timeoutS, ctx)).state;
}

/** The apply's note on how a guest was stopped (for a restart or `running = false`): which way was needed. */
export function stopDiagnostic(name: string, why: string, r: StopResult, timeoutS: number): Diagnostic {
  const how = r.asked === 'agent' ? 'through the QEMU guest agent' : 'by ACPI (power button)';
  const detail = r.poweredOff
    ? `Domain ${name} was asked to shut down ${how} and did not within shutdown_timeout (${timeoutS} s): it was powered off.`
    : `Domain ${name} shut down cleanly ${how} in ${r.seconds} s.`;
  return warning([], `Domain ${name} ${why}`, detail);
}

/**
 * Defines (or redefines, with `uuid`) the domain of a planned state; `pending` adds the create-pending mark. With
 * the escape hatch (`xml`), the stylesheet is applied and libvirtd validates the result against its own schema
 * (VIR_DOMAIN_DEFINE_VALIDATE). `built`: the DomainSpec of `s` the caller built already (`toDomainSpec(s, refs)`,
 * any uuid; not changed here), so one apply builds it once; else it is built from `resolved` (else resolved here).
 * @throws XsltError when the stylesheet fails; LibvirtError when libvirt refuses the definition.
 */
export async function defineDomain(
  client: LibvirtClient,
  s: DomainState,
  uuid?: string,
  pending = false,
  resolved?: ResolvedRefs,
  built?: DomainSpec,
): Promise<DomRef> {
  const base = built ?? toDomainSpec(s, resolved ?? (await resolveRefs(client, s)));
  const spec: DomainSpec = {
    ...base,
    ...(uuid ? { uuid } : {}),
    ...(pending ? { metadata: { ...base.metadata, [CREATE_PENDING_KEY]: '1' } } : {}),
  };
  if (!uuid) delete spec.uuid;
  const xml = await finalDomainXml(spec, xsltOf(s));
  return client.domainDefineXml(await withCurrentAddresses(client, xml, uuid), usesEscapeHatch(s) ? VIR_DOMAIN_DEFINE_VALIDATE : 0);
}

/**
 * `xml` with the guest addresses the domain's NICs and disks have now (live, then persistent; src/domain
 * keepDeviceAddresses), when a domain of `uuid` exists on this host: a device attached live keeps its address at
 * the next start, and a restart moves no device.
 */
async function withCurrentAddresses(client: LibvirtClient, xml: string, uuid: string | undefined): Promise<string> {
  const dom = uuid ? await domainByUuid(client, uuid) : null;
  if (!dom) return xml;
  const current = [await client.domainGetXmlDesc(dom, VIR_DOMAIN_XML_INACTIVE)];
  if (isActive((await client.domainGetState(dom)).state)) current.unshift(await client.domainGetXmlDesc(dom, 0));
  return keepDeviceAddresses(xml, current);
}

/** First libvirt version with VIR_DOMAIN_UNDEFINE_TPM (8.9.0); older ones remove a TPM's state by default. */
const LIBVIRT_UNDEFINE_TPM_VERSION = 8_009_000;
/** First libvirt version with checkpoints and VIR_DOMAIN_UNDEFINE_CHECKPOINTS_METADATA (5.6.0). */
const LIBVIRT_CHECKPOINTS_VERSION = 5_006_000;

/**
 * The virDomainUndefineFlags flags removeDomain uses on a libvirt of version `libVersion` (virConnectGetLibVersion:
 * major * 1,000,000 + minor * 1,000 + release): the managed save, snapshots' metadata, NVRAM, the metadata of
 * checkpoints (libvirt ≥ 5.6; a backup's checkpoint, docs/backups.md: without the flag libvirt refuses "cannot
 * delete inactive domain with N checkpoints") and an emulated TPM's state (libvirt ≥ 8.9).
 */
export function undefineFlags(libVersion: number): number {
  return (
    VIR_DOMAIN_UNDEFINE_MANAGED_SAVE |
    VIR_DOMAIN_UNDEFINE_SNAPSHOTS_METADATA |
    VIR_DOMAIN_UNDEFINE_NVRAM |
    (libVersion >= LIBVIRT_CHECKPOINTS_VERSION ? VIR_DOMAIN_UNDEFINE_CHECKPOINTS_METADATA : 0) |
    (libVersion >= LIBVIRT_UNDEFINE_TPM_VERSION ? VIR_DOMAIN_UNDEFINE_TPM : 0)
  );
}

/**
 * Removes a domain: powered off when running, then undefined with its managed save, snapshots, checkpoints, NVRAM
 * and emulated TPM's state (undefineFlags); the volumes it used that wait for it to let go (./release.ts) are
 * deleted then. `shutOff`: the caller has just powered the domain off (or found it shut off) and read its
 * definition (`xml`, which is then also its live XML), so libvirt is asked for neither again.
 */
export async function removeDomain(client: LibvirtClient, dom: DomRef, shutOff?: { readonly xml: string }): Promise<void> {
  const used = await usedVolumeKeys(client, shutOff?.xml ?? (await client.domainGetXmlDesc(dom, 0)));
  if (!shutOff && isActive((await client.domainGetState(dom)).state)) await client.domainDestroy(dom);
  await client.domainUndefine(dom, undefineFlags(await libVersionOf(client)));
  await releaseVolumes(client, used);
}

/** The keys of the volumes a domain's definition (`xml`) uses (disks and files that are volumes). */
async function usedVolumeKeys(client: LibvirtClient, xml: string): Promise<string[]> {
  const { files, volumes } = usedSources(xml);
  const keys: string[] = [];
  for (const f of files) {
    const vol = await volumeByPath(client, f);
    if (vol) keys.push(vol.key);
  }
  for (const pv of volumes) {
    const [pool, name] = [pv.slice(0, pv.indexOf('/')), pv.slice(pv.indexOf('/') + 1)];
    const p = await client.storagePoolLookupByName(pool).catch(() => null);
    const vol = p ? await volumeByName(client, p, name) : null;
    if (vol) keys.push(vol.key);
  }
  return keys;
}

/**
 * Starts the shut-off domain and, per `wait_for`, waits for its provisioning agent; returns the wait's diagnostics.
 * cloud-init runs (and reports "finished") at every boot; Ignition only on the first, so `ignition` waits only when
 * `firstBoot`.
 */
export async function startDomain(
  client: LibvirtClient,
  dom: DomRef,
  planned: DomainState,
  ctx: HandlerContext<LibvirtClient>,
  firstBoot: boolean,
): Promise<Diagnostic[]> {
  const name = str(planned.name) ?? '';
  const waitFor = planned.wait_for;
  const timeoutS = num(planned.wait_timeout) ?? DOMAIN_FIELDS.fields.wait_timeout.default;
  if (waitFor === 'lease') {
    ctx.log.info(`domain ${name}: starting and waiting for an address (up to ${timeoutS} s)`);
    return leaseDiagnostics(name, timeoutS, await startAndWaitForLease(client, dom, { timeoutS, signal: ctx.signal, log: ctx.log }));
  }
  const agent = waitFor === 'cloud-init' ? 'cloud-init' : waitFor === 'ignition' && firstBoot ? 'ignition' : null;
  if (!agent) {
    await client.domainCreate(dom);
    return [];
  }
  ctx.log.info(`domain ${name}: starting and waiting for ${agent} (up to ${timeoutS} s)`);
  const result = await startAndWait(client, dom, agent, { timeoutS, signal: ctx.signal, log: ctx.log });
  return waitDiagnostics(name, timeoutS, result, agent);
}

/** The diagnostic for a create that would take the name of a domain virtseed did not make. */
export function domainExistsDiagnostic(name: string, uuid: string): Diagnostic {
  return error(
    ['name'],
    'Domain exists already',
    `libvirt already has a domain named ${name} (UUID ${uuid}). Import it (terraform import <address> ${name}) or choose another name.`,
  );
}

/**
 * The state after StopProvider interrupted a shutdown: the new definition is in libvirt, the guest still runs its
 * old one. A pending re-provision keeps the old instance_id and `running = false` stays pending (`running` is
 * true), so the next plan offers them again; a changed definition takes effect at the guest's next start.
 */
export function interruptedState(
  planned: DomainState,
  prior: DomainState,
  uuid: string,
  reprovisionNow: boolean,
): { newState: DomainState; diagnostics: Diagnostic[] } {
  const newState: DomainState = {
    ...planned,
    id: uuid,
    uuid,
    running: true,
    addresses: prior.addresses ?? [],
    ip_address: prior.ip_address ?? null,
  };
  if (reprovisionNow) {
    newState.instance_id = prior.instance_id;
    newState.reprovision_action = prior.reprovision_action ?? 'none';
    newState.previous_instance_id = prior.previous_instance_id ?? null;
  }
  const next = reprovisionNow || planned.running === false ? 'Apply again to finish.' : 'It uses the new definition from its next start.';
  return {
    newState,
    diagnostics: [
      error(
        [],
        'Interrupted',
        `Terraform was interrupted while domain ${String(planned.name)} was shutting down; the guest keeps running. ${next}`,
      ),
    ],
  };
}
