/**
 * Client-supplied URLs the service (or its inference plane) may later fetch: dealership logos,
 * banner images. The check is syntactic and runs at admission, without DNS: `https` only, no
 * credentials, and a host that is neither an address in a non-public range nor a name that
 * only resolves inside a network.
 *
 * What it cannot see: a public-looking name whose DNS answer is private (or changes between
 * check and fetch, "DNS rebinding"). Whoever fetches must therefore resolve the name, check
 * every resolved address with `isPublicIpAddress`, connect to that checked address (no second
 * lookup), refuse redirects (or re-run both checks on each hop), and bound the transfer (a few MB,
 * a few seconds). The sandbox models never fetch.
 */

export const PUBLIC_URL_MAX_LENGTH = 2048;

/** Names that resolve only inside a network, whatever a resolver says. */
const LOCAL_NAMES = ['localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback'];
const LOCAL_SUFFIXES = [
  '.localhost',
  '.internal',
  '.local',
  '.localdomain',
  '.home.arpa',
  '.arpa',
  '.lan',
  '.intranet',
  '.corp',
];
/** Public wildcard-DNS services that answer with whatever address the name spells (127.0.0.1.nip.io). */
const ADDRESS_ECHO_DOMAINS = [
  'nip.io',
  'sslip.io',
  'xip.io',
  'localtest.me',
  'lvh.me',
  'vcap.me',
  'traefik.me',
  'lacolhost.com',
  'localh.st',
];

export type PublicUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

export interface PublicUrlOptions {
  /** where a parameter takes a "public HTTP(S) URL" both are fine (default); webhook destinations are https only */
  httpsOnly?: boolean;
}

/** Parses and checks a client-supplied URL; `reason` is a sentence fit for an error message. */
export function checkPublicUrl(raw: string, options: PublicUrlOptions = {}): PublicUrlCheck {
  if (raw.length > PUBLIC_URL_MAX_LENGTH)
    return { ok: false, reason: `must be at most ${PUBLIC_URL_MAX_LENGTH} characters` };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f\s\\]/.test(raw))
    return { ok: false, reason: 'must not contain whitespace, control characters or backslashes' };
  let url: URL;
  try {
    // the WHATWG parser canonicalises hosts: percent-escapes, IDNA mapping, and IPv4 written in
    // decimal (2130706433), octal (0177.0.0.1), hex (0x7f.1) or short forms all come out dotted
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not a valid absolute URL' };
  }
  if (options.httpsOnly ? url.protocol !== 'https:' : url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, reason: options.httpsOnly ? 'must use https' : 'must use http or https' };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'must not carry credentials' };
  const host = url.hostname.toLowerCase().replace(/\.+$/, '');
  if (host === '') return { ok: false, reason: 'has no host' };
  if (host.startsWith('[')) {
    const groups = parseIpv6(host.slice(1, -1));
    if (!groups) return { ok: false, reason: 'has an invalid IPv6 host' };
    const range = nonPublicIpv6Range(groups);
    return range ? { ok: false, reason: `must not point at ${range} address ${host}` } : { ok: true, url };
  }
  const octets = parseDottedIpv4(host);
  if (octets) {
    const range = nonPublicIpv4Range(octets);
    return range ? { ok: false, reason: `must not point at ${range} address ${host}` } : { ok: true, url };
  }
  if (LOCAL_NAMES.includes(host) || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix)))
    return { ok: false, reason: `must not point at the local name ${host}` };
  if (ADDRESS_ECHO_DOMAINS.some((domain) => host === domain || host.endsWith(`.${domain}`)))
    return { ok: false, reason: `must not use ${host}, whose DNS answers with the address its name spells` };
  // a single label (`metadata`, `intranet`) is resolved through search domains: never public
  if (!host.includes('.')) return { ok: false, reason: `must name a fully qualified public host, not ${host}` };
  return { ok: true, url };
}

/** For a fetcher, after DNS: true only for an address in no special-purpose range. */
export function isPublicIpAddress(address: string): boolean {
  const v4 = parseDottedIpv4(address);
  if (v4) return nonPublicIpv4Range(v4) === null;
  const v6 = parseIpv6(address.replace(/^\[|\]$/g, ''));
  return v6 !== null && nonPublicIpv6Range(v6) === null;
}

/** Strict dotted quad, each part 0-255 in decimal (the URL parser already normalised other forms). */
function parseDottedIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((part) => !/^(?:0|[1-9]\d{0,2})$/.test(part))) return null;
  const octets = parts.map(Number);
  return octets.every((octet) => octet <= 255) ? octets : null;
}

/** IPv4 special-purpose ranges (IANA registry, RFC 6890 and successors) that a fetch must never reach. */
const IPV4_RANGES: readonly [string, number, string][] = [
  ['0.0.0.0', 8, 'a "this network"'],
  ['10.0.0.0', 8, 'a private'],
  ['100.64.0.0', 10, 'a carrier-grade NAT'],
  ['127.0.0.0', 8, 'a loopback'],
  ['169.254.0.0', 16, 'a link-local'],
  ['172.16.0.0', 12, 'a private'],
  ['192.0.0.0', 24, 'an IETF protocol'],
  ['192.0.2.0', 24, 'a documentation'],
  ['192.88.99.0', 24, 'a 6to4 relay'],
  ['192.168.0.0', 16, 'a private'],
  ['198.18.0.0', 15, 'a benchmarking'],
  ['198.51.100.0', 24, 'a documentation'],
  ['203.0.113.0', 24, 'a documentation'],
  ['224.0.0.0', 4, 'a multicast'],
  ['240.0.0.0', 4, 'a reserved'],
];

function ipv4Number(octets: readonly number[]): number {
  return ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
}

function nonPublicIpv4Range(octets: readonly number[]): string | null {
  const value = ipv4Number(octets);
  for (const [base, bits, label] of IPV4_RANGES) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((value & mask) >>> 0 === ipv4Number(base.split('.').map(Number))) return label;
  }
  return null;
}

/** Eight 16-bit groups, or null; accepts `::` compression and a trailing dotted IPv4. */
function parseIpv6(text: string): number[] | null {
  if (text.includes('%')) return null; // zone ids only make sense on a local link
  let body = text.toLowerCase();
  const tail: number[] = [];
  const dotted = /(?:^|:)(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (dotted) {
    const octets = parseDottedIpv4(dotted[1]!);
    if (!octets) return null;
    tail.push((octets[0]! << 8) | octets[1]!, (octets[2]! << 8) | octets[3]!);
    body = body.slice(0, body.length - dotted[1]!.length);
    if (body.endsWith(':') && !body.endsWith('::')) body = body.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const groups = (half: string) => (half === '' ? [] : half.split(':'));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  if ([...head, ...rest].some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return null;
  const present = head.length + rest.length + tail.length;
  if (halves.length === 1 ? present !== 8 : present > 7) return null;
  const zeros = Array.from({ length: 8 - present }, () => 0);
  return [
    ...head.map((g) => parseInt(g, 16)),
    ...(halves.length === 2 ? zeros : []),
    ...rest.map((g) => parseInt(g, 16)),
    ...tail,
  ];
}

function embeddedIpv4(groups: readonly number[], from: number): number[] {
  return [groups[from]! >> 8, groups[from]! & 0xff, groups[from + 1]! >> 8, groups[from + 1]! & 0xff];
}

function nonPublicIpv6Range(groups: readonly number[]): string | null {
  const [g0, g1] = groups as [number, number];
  const zeroUpTo = (n: number) => groups.slice(0, n).every((group) => group === 0);
  if (zeroUpTo(8)) return 'an unspecified';
  if (zeroUpTo(7) && groups[7] === 1) return 'a loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): judge the IPv4 address inside
  if (zeroUpTo(5) && groups[5] === 0xffff) return nonPublicIpv4Range(embeddedIpv4(groups, 6));
  if (zeroUpTo(6)) return nonPublicIpv4Range(embeddedIpv4(groups, 6)) ?? 'a deprecated IPv4-compatible';
  // NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48) translate to the embedded IPv4 address
  if (g0 === 0x64 && g1 === 0xff9b)
    return groups.slice(2, 6).every((group) => group === 0)
      ? nonPublicIpv4Range(embeddedIpv4(groups, 6))
      : 'a local-use NAT64';
  if (g0 === 0x64 && g1 === 0xff9b + 1) return 'a local-use NAT64';
  if ((g0 & 0xff00) === 0xff00) return 'a multicast';
  if ((g0 & 0xffc0) === 0xfe80) return 'a link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'a site-local';
  if ((g0 & 0xfe00) === 0xfc00) return 'a unique-local';
  if (g0 === 0x0100 && groups.slice(1, 4).every((group) => group === 0)) return 'a discard-only';
  if (g0 === 0x2001 && g1 === 0x0db8) return 'a documentation';
  if (g0 === 0x3fff && g1 <= 0x0fff) return 'a documentation';
  // Teredo tunnels and ORCHID identifiers are not destinations; 6to4 embeds an IPv4 address
  if (g0 === 0x2001 && g1 === 0x0000) return 'a Teredo';
  if (g0 === 0x2001 && (g1 & 0xfff0) === 0x0010) return 'an ORCHID';
  if (g0 === 0x2001 && (g1 & 0xfff0) === 0x0020) return 'an ORCHIDv2';
  if (g0 === 0x2002) return nonPublicIpv4Range(embeddedIpv4(groups, 1)) ?? null;
  // everything outside global unicast 2000::/3 is reserved
  if ((g0 & 0xe000) !== 0x2000) return 'a reserved';
  return null;
}
