// IP addresses and ranges for the remoteAddress strategy and the IN_CIDR operator, parsed once at compile time.
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type AddressRange = [Address, number];

/** A dotted-quad IPv4 or an IPv6 address; null for anything else (hex, octal or short IPv4 forms included). */
export function parseAddress(text: string): Address | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text);
  return null;
}

/** An address (a range of one) or an address with a prefix length; null when it is neither. */
export function parseRange(text: string): AddressRange | null {
  if (!text.includes('/')) {
    const address = parseAddress(text);
    return address && [address, address.kind() === 'ipv4' ? 32 : 128];
  }
  if (ipaddr.IPv4.isValidCIDRFourPartDecimal(text)) return ipaddr.IPv4.parseCIDR(text);
  if (ipaddr.IPv6.isValidCIDR(text)) return ipaddr.IPv6.parseCIDR(text);
  return null;
}

/** Whether `address` is in `range`; an IPv4 address is never in an IPv6 range, nor the other way round. */
export function inRange(address: Address, range: AddressRange): boolean {
  return address.kind() === range[0].kind() && address.match(range);
}
