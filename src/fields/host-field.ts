/**
 * The `host` attribute of every resource that lives on a libvirt host (see ./model.ts): which of the provider's
 * hosts holds the object. One definition for the resources that cannot move (a change replaces them) and the
 * domain's, whose move its handler decides (a live migration or a replacement).
 */

const WHAT =
  "The libvirt host: the `name` of one of the provider's `host` blocks (e.g. `virtseed_placement.x.host`); null (the default) is the provider's `uri`.";

/** `host` of an object that cannot move by itself. */
export const HOST_FIELD = { type: 'string', optional: true, spec: null, replace: true, description: WHAT } as const;

/**
 * `virtseed_domain.host`: a running guest moves live; the handler also checks at plan that both hosts answer and
 * nothing else replaces the domain (else it plans the replacement, and says why).
 */
export const DOMAIN_HOST_FIELD = {
  type: 'string',
  optional: true,
  spec: null,
  impact: { if: { rule: 'equals', attribute: 'running', value: true }, then: 'live', else: 'replace' },
  description: `${WHAT} A running guest moves by live migration with its storage copied (it keeps running; its volumes and seed are made on the new host first, the old copies removed after the move) when both hosts answer and no other change replaces the domain; the plan says which way it moves.`,
} as const;
