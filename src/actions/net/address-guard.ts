/**
 * Outbound address rules for the restapi and dbaccess actions (DESIGN.md section 5): a builder's call may not
 * reach loopback, private, link-local, unique-local, carrier-grade NAT, multicast, reserved or cloud metadata
 * addresses, nor this machine's own interface addresses, unless the operator allows private addresses
 * (self-hosted installs, the test suite's local servers) or names the exact `host:port` in `allowHosts`.
 *
 * The check runs on the resolved address at connect time (a DNS lookup function handed to the socket), so a
 * name that resolves to a public address for a validator and to 127.0.0.1 for the connection (DNS rebinding)
 * is still refused. Metadata addresses stay refused even when private addresses are allowed: on a cloud
 * host they hand out credentials.
 *
 * @example
 *   isForbiddenAddress('::ffff:127.0.0.1') // true
 *   normalizeHost('0177.0.0.1')           // '127.0.0.1'
 *   net.connect({ host, port, lookup: createGuardedLookup({ allowPrivate: false }) })
 */
import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';
import ipaddr from 'ipaddr.js';

/** Cloud metadata endpoints (AWS, GCP, Azure, OpenStack: 169.254.169.254; AWS IPv6; ECS task metadata; Alibaba). */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '169.254.170.2', '100.100.100.200']);

export const REFUSED_CODE = 'ERR_DIALFLOW_ADDRESS_REFUSED';

/** Thrown (or passed to a lookup callback) when a host resolves to an address the rules refuse. */
export class RefusedAddressError extends Error {
  readonly code = REFUSED_CODE;
  constructor(message: string) {
    super(message);
    this.name = 'RefusedAddressError';
  }
}

export function isRefusedAddressError(err: unknown): err is RefusedAddressError {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === REFUSED_CODE) return true;
  }
  return false;
}

/** Parses an IP literal (any form ipaddr.js accepts, brackets allowed) and unwraps IPv4-mapped IPv6. */
function parseAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const withoutZone = bare.split('%')[0];
  if (!ipaddr.isValid(withoutZone)) return null;
  const parsed = ipaddr.parse(withoutZone);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed;
}

/** The range name ipaddr.js gives an address ('loopback', 'private', ...), after unwrapping IPv4-mapped IPv6. */
export function describeAddress(ip: string): string {
  const parsed = parseAddress(ip);
  if (!parsed) return 'invalid';
  if (METADATA_ADDRESSES.has(parsed.toString())) return 'metadata';
  return parsed.range();
}

export function isMetadataAddress(ip: string): boolean {
  const parsed = parseAddress(ip);
  return parsed !== null && METADATA_ADDRESSES.has(parsed.toString());
}

/**
 * True for every address that is not ordinary public unicast: loopback, private, link-local, unique-local,
 * unspecified (0.0.0.0/8, ::), multicast, broadcast, carrier-grade NAT, reserved and documentation ranges,
 * NAT64/6to4/Teredo (they embed an IPv4 address), IPv4-mapped IPv6 of any of those, and metadata addresses.
 * Anything that does not parse as an IP address is refused too.
 */
export function isForbiddenAddress(ip: string): boolean {
  const parsed = parseAddress(ip);
  if (!parsed) return true;
  if (METADATA_ADDRESSES.has(parsed.toString())) return true;
  return parsed.range() !== 'unicast';
}

let interfaceCache: { at: number; addresses: Set<string> } | null = null;

/** This machine's own addresses (a public IP on an interface reaches our own services like loopback does). */
function isLocalInterfaceAddress(ip: string): boolean {
  const now = Date.now();
  if (!interfaceCache || now - interfaceCache.at > 60_000) {
    const addresses = new Set<string>();
    for (const list of Object.values(os.networkInterfaces())) {
      for (const info of list ?? []) {
        const parsed = parseAddress(info.address);
        if (parsed) addresses.add(parsed.toString());
      }
    }
    interfaceCache = { at: now, addresses };
  }
  const parsed = parseAddress(ip);
  return parsed !== null && interfaceCache.addresses.has(parsed.toString());
}

/** Loopback, unspecified (0.0.0.0, ::) and this machine's interface addresses: all reach our own services. */
export function isThisHostAddress(ip: string): boolean {
  const range = describeAddress(ip);
  return range === 'loopback' || range === 'unspecified' || isLocalInterfaceAddress(ip);
}

export interface AddressRules {
  /** Allows private, loopback and link-local addresses (never metadata). For self-hosted installs and tests. */
  allowPrivate: boolean;
  /** Exact `host:port` pairs allowed even when private addresses are refused, e.g. `['127.0.0.1:3000']`. */
  allowHosts?: readonly string[];
}

/** Why an address is refused under the rules, or null when it may be used. */
export function findAddressProblem(ip: string, rules: Pick<AddressRules, 'allowPrivate'>): string | null {
  const range = describeAddress(ip);
  if (range === 'metadata') return 'metadata';
  if (rules.allowPrivate) return range === 'invalid' ? 'invalid' : null;
  if (isForbiddenAddress(ip)) return range;
  if (isLocalInterfaceAddress(ip)) return 'this server';
  return null;
}

/**
 * Lower-cases a host, strips IPv6 brackets, a trailing dot and an IPv6 zone, and writes IPv4 in its canonical
 * dotted form whatever way it was spelt: `0177.0.0.1`, `2130706433`, `0x7f.1` and `127.1` all become
 * `127.0.0.1` (the forms inet_aton, and so getaddrinfo, accept). WHATWG URL parsing already does this for
 * http(s) URLs; database addresses and `allowHosts` entries need it done here.
 */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.') && h.length > 1) h = h.slice(0, -1);
  const parsed = parseAddress(h);
  if (parsed) return parsed.toString();
  // ipaddr.js refuses some forms inet_aton takes (e.g. `0x7f.1`); WHATWG URL's host parser accepts the same set.
  if (/^[0-9a-fx.]+$/.test(h) && /^[0-9]/.test(h)) {
    try {
      const viaUrl = new URL(`http://${h}/`).hostname;
      if (net.isIPv4(viaUrl)) return viaUrl;
    } catch {
      // not an address: fall through
    }
  }
  return h;
}

/** Splits `host:port`, `[v6]:port` or a bare host; port is null when absent. */
export function splitHostPort(value: string): { host: string; port: number | null } {
  const v = value.trim();
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(v);
  if (bracket) return { host: normalizeHost(bracket[1]), port: bracket[2] ? Number(bracket[2]) : null };
  const colons = v.split(':').length - 1;
  if (colons === 1) {
    const [host, port] = v.split(':');
    if (/^\d+$/.test(port)) return { host: normalizeHost(host), port: Number(port) };
  }
  return { host: normalizeHost(v), port: null };
}

/** True when `allowHosts` names this host with this port (or with no port, meaning any port). */
export function isHostAllowed(allowHosts: readonly string[] | undefined, host: string, port: number | null): boolean {
  if (!allowHosts?.length) return false;
  const h = normalizeHost(host);
  return allowHosts.some((entry) => {
    const allowed = splitHostPort(entry);
    return allowed.host === h && (allowed.port === null || allowed.port === port);
  });
}

function refusalMessage(host: string, address: string, problem: string): string {
  const isLiteral = normalizeHost(host) === normalizeHost(address);
  if (problem === 'metadata') return `Refused: ${host} is a cloud metadata address`;
  if (problem === 'invalid') return `Refused: ${host} resolves to an invalid address (${address})`;
  return isLiteral
    ? `Refused: ${host} is a private address (${problem})`
    : `Refused: ${host} resolves to a private address (${address}, ${problem})`;
}

/** Throws RefusedAddressError when the IP literal may not be used. */
export function assertAddressAllowed(host: string, address: string, rules: Pick<AddressRules, 'allowPrivate'>): void {
  const problem = findAddressProblem(address, rules);
  if (problem) throw new RefusedAddressError(refusalMessage(host, address, problem));
}

export interface GuardedLookupOptions extends AddressRules {
  /** The port being connected to, so `allowHosts` entries with a port can match. */
  port?: number;
}

/**
 * A `lookup` for net/tls/undici connect options: resolves with dns.lookup (so /etc/hosts counts, as it does
 * for any connection) and refuses the connection when any resolved address is forbidden. Answers both the
 * single-address form and the `{ all: true }` form Node's happy-eyeballs connect uses.
 */
export function createGuardedLookup(options: GuardedLookupOptions): net.LookupFunction {
  return (hostname, lookupOptions, callback) => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (err, addresses) => {
      if (err) return callback(err, '', undefined);
      if (!addresses.length) return callback(Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' }), '', undefined);
      const skipRules = isHostAllowed(options.allowHosts, hostname, options.port ?? null);
      if (!skipRules) {
        for (const { address } of addresses) {
          const problem = findAddressProblem(address, options);
          if (problem) return callback(new RefusedAddressError(refusalMessage(hostname, address, problem)), '', undefined);
        }
      }
      if (lookupOptions.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * Resolves a host for a connection made elsewhere (a database driver) and returns the addresses to pin,
 * refusing forbidden ones. IP literals are checked without a lookup.
 */
export async function resolveGuarded(host: string, port: number, rules: AddressRules): Promise<dns.LookupAddress[]> {
  const h = normalizeHost(host);
  const skipRules = isHostAllowed(rules.allowHosts, h, port);
  const family = net.isIP(h);
  const addresses = family ? [{ address: h, family }] : await dns.promises.lookup(h, { all: true });
  if (!addresses.length) throw Object.assign(new Error(`No address for ${host}`), { code: 'ENOTFOUND' });
  if (!skipRules) for (const { address } of addresses) assertAddressAllowed(host, address, rules);
  return addresses;
}
