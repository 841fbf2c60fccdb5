/**
 * The model of placing one virtual machine on one of several libvirt hosts (pure): what the VM needs, what each
 * host has committed, and the policy that chooses among the hosts where it fits.
 */
import { PLACEMENT_FIELDS, valuesOf, type ValuesOf } from '../fields';

/** `spread`: the host with the least committed memory after the VM is added; `pack`: the most (that still fits). */
export type PlacementPolicy = ValuesOf<(typeof PLACEMENT_FIELDS)['fields']['policy']>;
export const PLACEMENT_POLICIES: readonly PlacementPolicy[] = valuesOf(PLACEMENT_FIELDS.fields.policy);

/** One VM to place. */
export interface PlacementRequest {
  /** The VM's (domain's) name: it never counts against itself, and names its guest on the hosts. */
  readonly name: string;
  /** Memory in MiB. */
  readonly memoryMiB: number;
  readonly vcpu: number;
  readonly policy: PlacementPolicy;
  /** No two VMs of this group on one host. */
  readonly antiAffinity?: string;
  /** The one host allowed (the VM goes there, or the placement fails saying why). */
  readonly pin?: string;
  /** The hosts to choose from, in order of preference for ties. */
  readonly hosts: readonly string[];
}

/** A domain committed on a host (running or not). */
export interface Guest {
  readonly name: string;
  /** Memory in MiB. */
  readonly memoryMiB: number;
  readonly vcpu: number;
  readonly antiAffinity?: string;
}

/** A host as the placement sees it: down (with the reason), or its budgets and the guests committed there. */
export type HostView =
  | { readonly name: string; readonly answers: false; readonly reason: string }
  | {
      readonly name: string;
      readonly answers: true;
      /** MiB of guest memory that may be committed. */
      readonly memoryMiB: number;
      /** vCPUs that may be committed. */
      readonly vcpu: number;
      readonly guests: readonly Guest[];
    };

/** A host the placement did not choose and why. */
export interface Skipped {
  readonly host: string;
  readonly why: string;
  /** The host did not answer (the rest are full, excluded or unknown). */
  readonly down: boolean;
}

export type PlacementResult =
  | { readonly ok: true; readonly host: string; readonly reason: string; readonly skipped: readonly Skipped[] }
  | { readonly ok: false; readonly skipped: readonly Skipped[] };
