/** The full libvirt client from a handler context (the protocol layer types it minimally). */
import type { LibvirtClient } from '../../../../src/libvirt';
import type { HandlerContext } from '../../plugin/handler';

export async function clientOf(ctx: HandlerContext): Promise<LibvirtClient> {
  return (await ctx.client()) as unknown as LibvirtClient;
}
