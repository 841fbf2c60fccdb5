import type { SeedFile } from '../../../src/seed/iso9660';

const utf8 = (text: string) => new TextEncoder().encode(text);

/** Deterministic pseudo-random bytes (xorshift32), for binary content. */
export function binary(length: number, seed = 0x9e3779b9): Uint8Array {
  const out = new Uint8Array(length);
  const words = new Uint32Array(out.buffer, 0, Math.floor(length / 4));
  let x = seed >>> 0;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x >>> 0;
  }
  for (let i = words.length * 4; i < length; i++) out[i] = i & 0xff;
  return out;
}

/** A NoCloud seed plus nested ConfigDrive-like files, an empty file and binary content. */
export function sampleFiles(): SeedFile[] {
  return [
    { path: 'meta-data', content: utf8('instance-id: i-0123456789abcdef\nlocal-hostname: vm1\n') },
    { path: 'user-data', content: utf8('#cloud-config\nhostname: vm1\n') },
    { path: 'network-config', content: utf8('version: 2\nethernets: {}\n') },
    { path: 'vendor-data', content: new Uint8Array(0) },
    { path: 'openstack/latest/meta_data.json', content: utf8('{"uuid":"i-1","hostname":"vm1"}') },
    { path: 'openstack/latest/user_data', content: utf8('#!/bin/sh\necho hi\n') },
    { path: 'openstack/content/0000', content: binary(5000) },
  ];
}

export const sortByPath = (files: readonly SeedFile[]) => [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

/** Files as comparable plain data: path → hex of content. */
export const asRecord = (files: readonly SeedFile[]) =>
  Object.fromEntries(files.map((f) => [f.path, Buffer.from(f.content).toString('hex')]));
