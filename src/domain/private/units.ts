/** libvirt's memory units (formatdomain "Memory Allocation"), as bytes per unit; default unit is KiB. */
const BYTES_PER_UNIT: Record<string, number> = {
  b: 1,
  bytes: 1,
  KB: 1e3,
  k: 1024,
  KiB: 1024,
  MB: 1e6,
  M: 1024 ** 2,
  MiB: 1024 ** 2,
  GB: 1e9,
  G: 1024 ** 3,
  GiB: 1024 ** 3,
  TB: 1e12,
  T: 1024 ** 4,
  TiB: 1024 ** 4,
};

/** Converts a libvirt memory value with its `unit` attribute to MiB; undefined for an unknown unit or number. */
export function toMiB(value: string, unit = 'KiB'): number | undefined {
  const perUnit = BYTES_PER_UNIT[unit];
  if (perUnit === undefined || !/^\d+$/.test(value)) return undefined;
  return (Number(value) * perUnit) / 1024 ** 2;
}
