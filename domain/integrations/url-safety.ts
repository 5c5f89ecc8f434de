import dns, { type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { IntegrationConfig } from '../../kernel/config.js';

/**
 * IPv6 global unicast, where every public address lies. ipaddr.js counts the rest of the space as unicast too when
 * it names no range there: the IPv4-compatible ::/96 (::127.0.0.1), the rest of the reserved ::/8, unassigned space.
 */
const globalUnicast = ipaddr.parseCIDR('2000::/3');

export type IntegrationPolicy = Pick<IntegrationConfig, 'allowPrivateUrls' | 'allowedHosts'>;

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * Whether an address is anything but public unicast: loopback, private, link-local, unique-local, CGNAT,
 * unspecified, broadcast, multicast, documentation, benchmarking, reserved, the IPv6 ranges that embed an
 * IPv4 address (mapped, compatible, translated, 6to4, Teredo, NAT64), and any IPv6 address outside global unicast.
 * What does not parse counts as private.
 */
export function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  const parsed = ipaddr.process(address);
  return parsed.range() !== 'unicast' || (parsed.kind() === 'ipv6' && !parsed.match(globalUnicast));
}

const allowsAnyAddress = (host: string, policy: IntegrationPolicy) =>
  policy.allowPrivateUrls || policy.allowedHosts.includes(host.toLowerCase());

const refusal = (host: string, address: string) =>
  `${host === address ? address : `${host} resolves to ${address}, which`} is a private, loopback or link-local address; ` +
  'set UNLEASH_ALLOW_PRIVATE_URL_IN_INTEGRATION=true or list the host in UNLEASH_ALLOW_LIST_INTEGRATION to send there.';

/**
 * Why an integration may not send to this URL, or undefined when it may. A name that does not resolve now is
 * accepted: every delivery resolves it again through `safeLookup`.
 */
export async function checkIntegrationUrl(url: string, policy: IntegrationPolicy): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a URL; give an absolute http or https URL.';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `must be an http or https URL, not ${parsed.protocol}.`;
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (allowsAnyAddress(host, policy)) return undefined;
  if (isIP(host) !== 0) return isPrivateAddress(host) ? refusal(host, host) : undefined;
  let answers: LookupAddress[];
  try {
    answers = await dns.promises.lookup(host, { all: true });
  } catch {
    return undefined;
  }
  const inside = answers.find(({ address }) => isPrivateAddress(address));
  return inside ? refusal(host, inside.address) : undefined;
}

/**
 * A `net.connect`-style lookup (undici's `connect.lookup`) that refuses private answers with an EPRIVATEADDRESS
 * error, so the connection is made to exactly the address that was checked. Node skips the lookup for address
 * literals: check those with `isPrivateAddress` before connecting.
 */
export function safeLookup(policy: IntegrationPolicy) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, answers) => {
      if (error) return callback(error, []);
      const inside = allowsAnyAddress(hostname, policy) ? undefined : answers.find(({ address }) => isPrivateAddress(address));
      if (inside) {
        const refused: NodeJS.ErrnoException = Object.assign(new Error(refusal(hostname, inside.address)), { code: 'EPRIVATEADDRESS', hostname });
        return callback(refused, []);
      }
      const [first] = answers;
      if (options.all) return callback(null, answers);
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND', hostname }), []);
      callback(null, first.address, first.family);
    });
  };
}
