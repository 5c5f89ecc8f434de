import type { AddressInfo } from 'node:net';

/** Addresses that mean "every interface": a browser on this machine reaches them as localhost. */
const WILDCARDS = new Set(['0.0.0.0', '::']);

const hostPort = ({ address, family, port }: AddressInfo) => `${family === 'IPv6' ? `[${address}]` : address}:${port}`;

/** What the service is bound to (`0.0.0.0:4242`), and the URL to open in a browser on this machine (`http://localhost:4242/`). */
export function listeningOn(addresses: AddressInfo[]): { bound: string; url: string } {
  const first = addresses[0]!;
  const host = WILDCARDS.has(first.address) ? `localhost:${first.port}` : hostPort(first);
  return { bound: addresses.map(hostPort).join(', '), url: `http://${host}/` };
}
