/**
 * The plan summary as GitHub-flavoured Markdown for a pull-request comment (pure): a headline, the objects changed
 * outside Terraform (when the refresh found any), one table with a row per changed resource, then per updated or
 * replaced resource a table of its changed attributes, and the notes. Unchanged resources are counted, not listed.
 */
import type { ImpactVerdict } from './impact';
import type { Action, AttributeChange, PlanSummary, ResourceSummary } from './summarize';
import type { Shown } from './values';

/** Longest value shown in a cell, in characters; longer ones are cut with `…`. */
const MAX_VALUE = 80;

/** A table cell's text: pipes escaped, line breaks shown as ⏎ (a cell is one line). */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, '⏎');
}

/** `text` as a code span (a longer fence when it holds backticks). */
function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** One side of a change for a cell. */
export function showValue(s: Shown): string {
  switch (s.kind) {
    case 'sensitive':
      return '*(sensitive value)*';
    case 'unknown':
      return '*(known after apply)*';
    case 'absent':
      return '*(none)*';
    case 'value': {
      let text = typeof s.value === 'string' ? s.value : JSON.stringify(s.value);
      if (text.length > MAX_VALUE) text = `${text.slice(0, MAX_VALUE - 1)}…`;
      return code(cell(text));
    }
  }
}

function showImpact(v: ImpactVerdict): string {
  return v === 'restart' || v === 'replace' || v === 'delete' || v === 'unknown' ? `**${v}**` : v;
}

function attributeImpact(c: AttributeChange): string {
  if (c.impact === null) return '— (computed)';
  const why = [c.forces_replacement ? 'forces replacement' : undefined, c.impact_reason].filter(Boolean).join('; ');
  return why ? `${showImpact(c.impact)} (${cell(why)})` : showImpact(c.impact);
}

function reprovisionCell(r: ResourceSummary): string {
  if (!r.reprovision) return '—';
  const from = r.reprovision.previous_instance_id ? code(r.reprovision.previous_instance_id) : '*(none)*';
  const to = r.reprovision.instance_id ? code(r.reprovision.instance_id) : '*(known after apply)*';
  return `${r.reprovision.action}: ${from} → ${to}`;
}

function snapshotCell(r: ResourceSummary): string {
  if (r.snapshot.taken === true) return 'yes';
  if (r.snapshot.taken === false) return 'no';
  return r.snapshot.policy ? `? (${code(r.snapshot.policy)})` : '—';
}

/** Changed attributes a reviewer set (computed ones left out), for the overview row. */
function changedNames(r: ResourceSummary): string {
  if (r.action === 'create') return 'new';
  if (r.action === 'delete') return 'destroyed';
  const names = [...new Set(r.changes.filter((c) => c.impact !== null).map((c) => c.path))];
  return names.length ? names.map(code).join(', ') : r.action === 'replace' || r.action === 'update' ? '*(computed only)*' : '—';
}

const ACTION_ORDER: readonly Action[] = ['create', 'update', 'replace', 'delete', 'forget', 'read'];
const ACTION_WORDS: Readonly<Record<Action, string>> = {
  create: 'to create',
  update: 'to update in place',
  replace: 'to replace',
  delete: 'to destroy',
  forget: 'to forget',
  read: 'to read',
  'no-op': 'unchanged',
};

function headline(s: PlanSummary): string {
  const parts = ACTION_ORDER.filter((a) => s.counts[a]).map((a) => `${s.counts[a]} ${ACTION_WORDS[a]}`);
  const unchanged = s.counts['no-op'] ? ` · ${s.counts['no-op']} unchanged` : '';
  if (!parts.length) return `**No changes.**${unchanged}`;
  if (s.impact === 'none') return `**${parts.join(', ')}**${unchanged} · no running guest is disrupted`;
  const worst = s.resources.filter((r) => r.action !== 'no-op' && r.impact === s.impact).map((r) => code(r.address));
  return `**${parts.join(', ')}**${unchanged} · most disruptive: ${showImpact(s.impact)} (${worst.join(', ')})`;
}

function driftSection(s: PlanSummary): string[] {
  if (!s.drift.length) return [];
  const lines = [
    '',
    '#### Changed outside Terraform',
    '',
    "| resource | drift | attribute | in Terraform's state | on the host |",
    '|---|---|---|---|---|',
  ];
  for (const d of s.drift) {
    if (d.drift === 'deleted' || !d.changes.length) {
      lines.push(`| ${code(d.address)} | ${d.drift} | | | |`);
      continue;
    }
    for (const c of d.changes)
      lines.push(`| ${code(d.address)} | ${d.drift} | ${code(c.path)} | ${showValue(c.before)} | ${showValue(c.after)} |`);
  }
  return lines;
}

function resourceDetails(r: ResourceSummary): string[] {
  const lines = ['', `#### ${code(r.address)} · ${r.action} · ${showImpact(r.impact)}`, ''];
  if (!r.changes.length) return [...lines, '*(no attribute changes known at plan)*'];
  lines.push('| attribute | before | after | impact |', '|---|---|---|---|');
  for (const c of r.changes)
    lines.push(
      c.secret_changed
        ? `| ${code(c.path)} | *(secret)* | **secret changed** | ${attributeImpact(c)} |`
        : `| ${code(c.path)} | ${showValue(c.before)} | ${showValue(c.after)} | ${attributeImpact(c)} |`,
    );
  return lines;
}

/** The summary as Markdown; `title` is its heading. Ends with a newline. */
export function renderMarkdown(s: PlanSummary, title = 'virtseed plan summary'): string {
  const lines = [`### ${title}`, '', headline(s), ...driftSection(s)];
  const changed = s.resources.filter((r) => r.action !== 'no-op');
  if (changed.length) {
    if (s.drift.length) lines.push('', '#### Planned changes');
    lines.push('', '| resource | action | impact | re-provision | snapshot | changed attributes |', '|---|---|---|---|---|---|');
    for (const r of changed) {
      lines.push(
        `| ${code(r.address)} | ${r.action} | ${showImpact(r.impact)} | ${reprovisionCell(r)} | ${snapshotCell(r)} | ${changedNames(r)} |`,
      );
    }
    for (const r of changed) if (r.action === 'update' || r.action === 'replace') lines.push(...resourceDetails(r));
  }
  if (s.notes.length) lines.push('', s.notes.map((n) => `> ${n}`).join('\n>\n'));
  return `${lines.join('\n')}\n`;
}
