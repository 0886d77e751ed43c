/**
 * The served reference's own internal links behind the kit's Toxiproxy (`networkFaults`): when
 * the env names a Toxiproxy, the sandbox workers reach the control plane through a proxy there
 * instead of directly, so the kit can delay, black-hole or cut exactly that link. One proxy per
 * link and data directory, named deterministically, so a control plane restarted on the same
 * data replaces its proxy rather than leaking another. Only the kit's (loopback) Toxiproxy.
 */
import { createHash } from 'node:crypto';
import { Toxiproxy } from 'toxiproxy-node-client';
import { ContractError } from '../../../contract/errors.js';
import type { NetworkLinkName, NetworkLinks } from '../../../contract/target.js';

export class ToxiproxyLinks {
  private readonly client: Toxiproxy;
  private readonly routed = new Map<NetworkLinkName, string>();
  private readonly id: string;

  constructor(
    private readonly toxiproxyUrl: string,
    /** Something unique to this target and stable across its restarts (its data directory). */
    seed: string,
  ) {
    this.client = new Toxiproxy(toxiproxyUrl);
    this.id = createHash('sha256').update(seed).digest('hex').slice(0, 16);
  }

  private nameOf(link: NetworkLinkName): string {
    return `smtc_${link.replaceAll('-', '_')}_${this.id}`;
  }

  /**
   * Route `link`'s traffic to `upstreamUrl` through a proxy; returns the URL the link's client
   * must dial instead (same path, the proxy's address).
   */
  async route(link: NetworkLinkName, upstreamUrl: string): Promise<string> {
    const upstream = new URL(upstreamUrl);
    const name = this.nameOf(link);
    try {
      await (await this.client.get(name)).remove();
    } catch {
      // no proxy of that name yet
    }
    let listen: string;
    try {
      const proxy = await this.client.createProxy({
        name,
        listen: '127.0.0.1:0',
        upstream: upstream.host,
        enabled: true,
      });
      listen = proxy.listen;
    } catch {
      throw new ContractError('unavailable', 'the Toxiproxy for network links does not answer');
    }
    this.routed.set(link, name);
    const via = new URL(upstreamUrl);
    via.host = listen;
    return via.toString().replace(/\/+$/, '');
  }

  list(): NetworkLinks {
    return {
      toxiproxyUrl: this.toxiproxyUrl,
      links: [...this.routed].map(([link, proxy]) => ({ link, proxy })),
    };
  }

  /** Remove this target's proxies (best effort: a Toxiproxy that is gone has none left). */
  async close(): Promise<void> {
    const names = [...this.routed.values()];
    this.routed.clear();
    await Promise.allSettled(names.map(async (n) => (await this.client.get(n)).remove()));
  }
}
