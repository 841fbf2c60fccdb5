/**
 * Host device addresses as users write them (and `lspci -D`, `lsusb` show them) ⇄ the model's numbers
 * (./model.ts `DomainPciAddress`, `DomainHostdevUsb`). Pure.
 */
import type { DomainPciAddress } from './model';

/** `0000:01:00.0` (lower-case hex, `lspci -D`) → the PCI address; NaNs for anything else (the model's check
 *  reports them). */
export function parsePciAddress(text: string): DomainPciAddress {
  const m = /^([0-9a-f]{4}):([0-9a-f]{2}):([0-9a-f]{2})\.([0-7])$/.exec(text);
  if (!m) return { domain: NaN, bus: NaN, slot: NaN, function: NaN };
  return { domain: parseInt(m[1], 16), bus: parseInt(m[2], 16), slot: parseInt(m[3], 16), function: Number(m[4]) };
}

/** The PCI address as `lspci -D` writes it. */
export function formatPciAddress(a: DomainPciAddress): string {
  const h = (n: number, w: number) => n.toString(16).padStart(w, '0');
  return `${h(a.domain, 4)}:${h(a.bus, 2)}:${h(a.slot, 2)}.${a.function}`;
}

/** `1:4` (decimal, no leading zeros: lsusb's `Bus 001 Device 004`) → bus and device; NaNs for anything else. */
export function parseUsbAddress(text: string): { bus: number; device: number } {
  const m = /^(0|[1-9]\d*):([1-9]\d*)$/.exec(text);
  return m ? { bus: Number(m[1]), device: Number(m[2]) } : { bus: NaN, device: NaN };
}
