import ipaddr from 'ipaddr.js';
import { AppError } from '../errors';

/** A client address read from the socket or a trusted X-Forwarded-For entry. */
export interface ClientAddress {
  /** The address in one canonical text: dotted-decimal IPv4 (also for IPv4 written as IPv6), or RFC 5952 IPv6. */
  address: string;
  /**
   * What identifies one caller: the IPv4 address, or the /64 of an IPv6 address
   * (`2001:db8:0:1::/64`), since one subscriber usually holds a whole /64 and could otherwise
   * rotate addresses. IPv6 addresses whose first 64 bits are zero are special-purpose, so they
   * keep all 128 bits rather than sharing the all-zero /64.
   */
  identity: string;
}

// Longer than any address with brackets, port and a short zone: not worth parsing.
const MAX_ENTRY_CHARS = 100;
const DOTTED_QUAD = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/;
const BRACKETED = /^\[([^\]]+)\](?::\d{1,5})?$/;
const DOTTED_TAIL = /(?<=:)(\d{1,3}(?:\.\d{1,3}){3})$/;

// Zero-padded octets are read as decimal, the way fixed-width logs and proxies write them, not as
// inet_aton's octal; the other inet_aton forms (hex, fewer parts) are no client address any proxy writes.
// An address already canonical (every request's, the second time it is read) is returned as is.
function dottedDecimal(text: string): string | undefined {
  const quad = DOTTED_QUAD.exec(text);
  if (!quad) return undefined;
  let canonical = true;
  for (let i = 1; i <= 4; i++) {
    if (Number(quad[i]) > 255) return undefined;
    if (quad[i].length > 1 && quad[i][0] === '0') canonical = false;
  }
  return canonical ? text : `${Number(quad[1])}.${Number(quad[2])}.${Number(quad[3])}.${Number(quad[4])}`;
}

// Forms that carry one IPv4 address: mapped ::ffff:a.b.c.d, translated ::ffff:0:a.b.c.d,
// compatible ::a.b.c.d (not :: or ::1), and the NAT64 well-known prefix 64:ff9b::/96.
function embeddedIPv4(words: number[]): string | undefined {
  const upperZero = words.slice(0, 4).every((w) => w === 0);
  const mapped = upperZero && ((words[4] === 0 && words[5] === 0xffff) || (words[4] === 0xffff && words[5] === 0));
  const compatible = upperZero && words[4] === 0 && words[5] === 0 && words[6] !== 0;
  const nat64 = words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0);
  if (!mapped && !compatible && !nat64) return undefined;
  return [words[6] >> 8, words[6] & 0xff, words[7] >> 8, words[7] & 0xff].join('.');
}

/**
 * Parses one client address as a proxy or the socket writes it, with ipaddr.js: surrounding
 * brackets, a port (`203.0.113.7:1234`, `[2001:db8::1]:443`) and an IPv6 zone are dropped,
 * zero-padded IPv4 octets are read as decimal, and IPv4 written as IPv6 (`::ffff:cb00:7107`,
 * `::5.6.7.8`) becomes the IPv4 address. Every way of writing one address gives one result.
 * @param entry - the socket address or one X-Forwarded-For entry
 * @returns the canonical address and caller identity, or undefined when the entry is no IP address
 */
export function parseClientAddress(entry: string): ClientAddress | undefined {
  let text = entry.trim();
  if (text.length === 0 || text.length > MAX_ENTRY_CHARS) return undefined;
  text = BRACKETED.exec(text)?.[1] ?? IPV4_WITH_PORT.exec(text)?.[1] ?? text;
  if (!text.includes(':')) {
    const ipv4 = dottedDecimal(text);
    return ipv4 === undefined ? undefined : { address: ipv4, identity: ipv4 };
  }
  text = text.replace(/%[^%]*$/, '');
  if (text.includes('.')) {
    const tail = DOTTED_TAIL.exec(text)?.[1];
    const ipv4 = tail === undefined ? undefined : dottedDecimal(tail);
    if (tail === undefined || ipv4 === undefined) return undefined;
    text = text.slice(0, -tail.length) + ipv4;
  }
  if (!ipaddr.IPv6.isValid(text)) return undefined;
  const words = ipaddr.IPv6.parse(text).parts;
  const ipv4 = embeddedIPv4(words);
  if (ipv4 !== undefined) return { address: ipv4, identity: ipv4 };
  const address = new ipaddr.IPv6(words).toString();
  if (words.slice(0, 4).every((w) => w === 0)) return { address, identity: address };
  // The text of this /64 is what caller keys were always computed from: keep it byte for byte.
  return { address, identity: `${words.slice(0, 4).map((w) => w.toString(16)).join(':')}::/64` };
}

/**
 * The caller identity of a client address ({@link ClientAddress.identity}), for whatever counts
 * per caller (free scores, live-feed connections).
 * @param address - the client address (`ctx.ip`)
 * @returns the IPv4 address or the IPv6 /64
 * @throws AppError invalid_client_address (400) when the address is no IP address: a shared
 *   fallback key would lump every such caller together, and the raw text could change per request
 */
export function callerIdentity(address: string): string {
  const parsed = parseClientAddress(address);
  if (!parsed) {
    throw new AppError(
      400,
      'invalid_client_address',
      'The client address of this request (from X-Forwarded-For, written by the proxy) is not an IP address, so the server cannot tell who is calling; nothing was counted.',
    );
  }
  return parsed.identity;
}
