/**
 * The `host` attribute every resource that lives on a libvirt host has (see ./model.ts): which of the provider's
 * hosts holds the object. One definition, each table words what a change does to its kind of object.
 */

/** The `host` field of a resource table; `change` ends the description (what changing it does). */
export function hostField<C extends string>(change: C) {
  return {
    type: 'string',
    optional: true,
    spec: null,
    description: `The libvirt host: the \`name\` of one of the provider's \`host\` blocks (e.g. \`virtseed_placement.x.host\`); null (the default) is the provider's \`uri\`. ${change}`,
  } as const;
}

/** What a `host` change does to an object that cannot move by itself. */
export const HOST_CHANGE_REPLACES = 'Changing it replaces the object (a new one on the new host, the old one removed).';
