/**
 * Checks a domain XML against libvirt's own RELAX NG schema at plan, on the machine running Terraform: `xmllint
 * --relaxng` (Debian package libxml2-utils) with the schema libvirt installs (/usr/share/libvirt/schemas/domain.rng,
 * Debian package libvirt0; `VIRTSEED_LIBVIRT_SCHEMAS` names another folder), as `virt-xml-validate FILE domain`
 * does. Concurrent checks of one plan go to one xmllint run (the schema is parsed once). Where either is missing,
 * the check is skipped (and the apply's define still validates: VIR_DOMAIN_DEFINE_VALIDATE).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folder of libvirt's schemas used for the check. */
export function libvirtSchemaDir(): string {
  return process.env.VIRTSEED_LIBVIRT_SCHEMAS ?? '/usr/share/libvirt/schemas';
}

/** The outcome of one check: the schema's complaints (empty: valid), or why it could not be checked. */
export type SchemaCheck =
  { readonly checked: true; readonly errors: readonly string[] } | { readonly checked: false; readonly reason: string };

interface Pending {
  readonly xml: string;
  readonly resolve: (r: SchemaCheck) => void;
}

let queue: Pending[] = [];

/** Checks `xml` (a whole `<domain>`) against libvirt's domain schema. Never rejects. */
export function checkDomainSchema(xml: string): Promise<SchemaCheck> {
  return new Promise((resolve) => {
    queue.push({ xml, resolve });
    if (queue.length === 1) setImmediate(flush);
  });
}

function flush(): void {
  const batch = queue;
  queue = [];
  const rng = join(libvirtSchemaDir(), 'domain.rng');
  if (!existsSync(rng)) {
    const reason = `libvirt's schema ${rng} is not on this machine (Debian package libvirt0)`;
    for (const p of batch) p.resolve({ checked: false, reason });
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'virtseed-schema-'));
  const files = batch.map((p, i) => {
    const file = join(dir, `domain-${i}.xml`);
    writeFileSync(file, p.xml);
    return file;
  });
  execFile('xmllint', ['--noout', '--relaxng', rng, ...files], { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (err, _stdout, stderr) => {
    rmSync(dir, { recursive: true, force: true });
    const missing = err && (err as NodeJS.ErrnoException).code === 'ENOENT';
    if (missing || (err && !stderr.includes('validate'))) {
      const reason = missing ? 'xmllint is not installed (Debian package libxml2-utils)' : `xmllint failed: ${err?.message ?? ''}`;
      for (const p of batch) p.resolve({ checked: false, reason });
      return;
    }
    const results = attribute(stderr, files);
    batch.forEach((p, i) => p.resolve({ checked: true, errors: results[i] }));
  });
}

/**
 * xmllint's messages per file: it checks the files in order and ends each with `FILE validates` or `FILE fails
 * to validate`; messages before that end (with or without the file name) are that file's.
 */
export function attribute(stderr: string, files: readonly string[]): string[][] {
  const out = files.map((): string[] => []);
  let at = 0;
  for (const line of stderr.split('\n')) {
    if (!line.trim() || at >= files.length) continue;
    if (line === `${files[at]} validates`) {
      at++;
    } else if (line === `${files[at]} fails to validate`) {
      if (!out[at].length) out[at].push('the document does not match the schema');
      at++;
    } else {
      out[at].push(line.startsWith(`${files[at]}:`) ? `line ${line.slice(files[at].length + 1)}` : line);
    }
  }
  return out;
}
