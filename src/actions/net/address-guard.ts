// Over 400 lines: every outbound address rule, one security boundary, reviewed as one file.
/**
 * Outbound address rules for the restapi and dbaccess actions: a builder's call may not reach loopback,
 * private, link-local, unique-local, carrier-grade NAT, multicast, reserved or cloud metadata addresses, nor
 * this machine's own interface addresses, unless the operator allows private addresses (self-hosted installs,
 * the test suite's local servers) or names the exact `host:port` in `allowHosts`. An IPv6 address that carries
 * an IPv4 address (mapped, compatible, SIIT, NAT64) is judged as that IPv4 address.
 *
 * The check runs on the resolved address at connect time (a DNS lookup function handed to the socket), so a
 * name that resolves to a public address for a validator and to 127.0.0.1 for the connection (DNS rebinding)
 * is still refused. Metadata addresses stay refused even when private addresses are allowed: on a cloud
 * host they hand out credentials. The platform's own services (its database, Redis) are refused by address
 * and port whatever the other rules allow.
 *
 * @example
 *   isForbiddenAddress('::ffff:127.0.0.1') // true
 *   isForbiddenAddress('::7f00:1')         // true (IPv4-compatible 127.0.0.1)
 *   normalizeHost('0177.0.0.1')           // '127.0.0.1'
 *   net.connect({ host, port, lookup: createGuardedLookup({ allowPrivate: false, port }) })
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

/**
 * The refusal behind an error, along its `cause` chain (HTTP and database clients wrap what a lookup or a
 * connector threw), by code, so that a copy made across a module boundary counts too; undefined when none.
 */
export function findRefusedAddressError(err: unknown): Error | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === REFUSED_CODE) return e as Error;
  }
  return undefined;
}

/**
 * Parses an IP literal as the operating system reads it: IPv6 text through Node's inet_pton check and WHATWG
 * URL's canonical form (ipaddr.js alone reads `::127.0.0.1` as `::ffff:127.0.0.1`), IPv4 in any spelling
 * inet_aton accepts (`0177.0.0.1`, `2130706433`, `127.1`), as WHATWG URL does for http URLs. Brackets and an
 * IPv6 zone are allowed.
 */
function parseLiteral(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const withoutZone = bare.split('%')[0];
  if (net.isIPv6(withoutZone)) {
    try {
      return ipaddr.IPv6.parse(new URL(`http://[${withoutZone}]/`).hostname.slice(1, -1));
    } catch {
      return null;
    }
  }
  return ipaddr.IPv4.isValid(withoutZone) ? ipaddr.IPv4.parse(withoutZone) : null;
}

const lowIPv4 = (bytes: number[]) => new ipaddr.IPv4(bytes.slice(12, 16));

/**
 * The IPv4 address an IPv6 address stands for on the wire: IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible
 * `::a.b.c.d` (deprecated, still routed by some stacks), SIIT `::ffff:0:a.b.c.d` and NAT64 `64:ff9b::a.b.c.d`
 * (and the local-use `64:ff9b:1::/48`) all carry it in their low 32 bits. Null for any other address.
 */
function findTranslatedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const bytes = v6.toByteArray();
  const range = v6.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') return lowIPv4(bytes);
  if (bytes.slice(0, 12).every((b) => b === 0) && range !== 'unspecified' && range !== 'loopback') return lowIPv4(bytes);
  return null;
}

/**
 * The IPv4 addresses a tunnelling IPv6 address delivers to: 6to4 (`2002:AABB:CCDD::/48` -> A.B.C.D) and
 * Teredo (`2001:0::/32`: its server, and its client stored inverted in the last 32 bits).
 */
function findTunnelledIPv4(parsed: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4[] {
  if (parsed.kind() !== 'ipv6') return [];
  const bytes = (parsed as ipaddr.IPv6).toByteArray();
  const range = parsed.range();
  if (range === '6to4') return [new ipaddr.IPv4(bytes.slice(2, 6))];
  if (range === 'teredo') return [new ipaddr.IPv4(bytes.slice(4, 8)), new ipaddr.IPv4(bytes.slice(12, 16).map((b) => b ^ 0xff))];
  return [];
}

/** The address a connection to the literal reaches: an IPv6 address that translates to IPv4 is that IPv4 address. */
function parseAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const parsed = parseLiteral(ip);
  if (parsed?.kind() !== 'ipv6') return parsed;
  return findTranslatedIPv4(parsed as ipaddr.IPv6) ?? parsed;
}

/** The address itself and every IPv4 address it tunnels to. */
function listReachedAddresses(parsed: ipaddr.IPv4 | ipaddr.IPv6): (ipaddr.IPv4 | ipaddr.IPv6)[] {
  return [parsed, ...findTunnelledIPv4(parsed)];
}

const isMetadata = (parsed: ipaddr.IPv4 | ipaddr.IPv6) => listReachedAddresses(parsed).some((a) => METADATA_ADDRESSES.has(a.toString()));

/** The range name ipaddr.js gives the address a literal reaches ('loopback', 'private', ...), or 'metadata'. */
export function describeAddress(ip: string): string {
  const parsed = parseAddress(ip);
  if (!parsed) return 'invalid';
  if (isMetadata(parsed)) return 'metadata';
  return parsed.range();
}

export function isMetadataAddress(ip: string): boolean {
  const parsed = parseAddress(ip);
  return parsed !== null && isMetadata(parsed);
}

/**
 * True for every address that is not ordinary public unicast: loopback, private, link-local, unique-local,
 * unspecified (0.0.0.0/8, ::), multicast, broadcast, carrier-grade NAT, reserved and documentation ranges,
 * 6to4 and Teredo (tunnels no API needs), any IPv6 form of a refused IPv4 address (mapped, compatible, SIIT,
 * NAT64: each is judged as the IPv4 address it carries), and metadata addresses. Anything that does not parse
 * as an IP address is refused too.
 */
export function isForbiddenAddress(ip: string): boolean {
  const parsed = parseAddress(ip);
  if (!parsed) return true;
  if (isMetadata(parsed)) return true;
  return parsed.range() !== 'unicast';
}

let interfaceCache: { at: number; addresses: Set<string> } | null = null;

/** This machine's own addresses (a public IP on an interface reaches our own services like loopback does). */
function isLocalInterfaceAddress(parsed: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  const now = Date.now();
  if (!interfaceCache || now - interfaceCache.at > 60_000) {
    const addresses = new Set<string>();
    for (const list of Object.values(os.networkInterfaces())) {
      for (const info of list ?? []) {
        const own = parseAddress(info.address);
        if (own) addresses.add(own.toString());
      }
    }
    interfaceCache = { at: now, addresses };
  }
  return interfaceCache.addresses.has(parsed.toString());
}

const isThisHost = (parsed: ipaddr.IPv4 | ipaddr.IPv6) =>
  listReachedAddresses(parsed).some((a) => a.range() === 'loopback' || a.range() === 'unspecified' || isLocalInterfaceAddress(a));

/** Loopback, unspecified (0.0.0.0, ::), this machine's interface addresses and their IPv6 forms: all reach our own services. */
export function isThisHostAddress(ip: string): boolean {
  const parsed = parseAddress(ip);
  return parsed !== null && isThisHost(parsed);
}

export interface AddressRules {
  /** Allows private, loopback and link-local addresses (never metadata). For self-hosted installs and tests. */
  allowPrivate: boolean;
  /** Exact `host:port` pairs allowed even when private addresses are refused, e.g. `['127.0.0.1:3000']`. */
  allowHosts?: readonly string[];
  /**
   * The platform's own services (its database, Redis, and for HTTP calls its own server): refused by address
   * and port whatever `allowPrivate` and `allowHosts` say.
   */
  platformServices?: PlatformServices;
  /**
   * `host:port` names of the platform's own server as the public reaches it (PUBLIC_URL's host): refused by
   * name whatever the other rules say. By name, because that address is often a load balancer or CDN that
   * other services share; reaching it by its address alone fails TLS or lands on another site.
   */
  ownHosts?: readonly string[];
}

/** Throws RefusedAddressError when `host:port` is one of the names of the platform's own server (`ownHosts`). */
export function assertNotOwnHost(host: string, port: number, rules: Pick<AddressRules, 'ownHosts'>): void {
  if (isHostAllowed(rules.ownHosts, host, port)) throw new RefusedAddressError(`Refused: ${host}:${port} is this platform's own server`);
}

/** Why an address is refused under the rules, or null when it may be used. */
export function findAddressProblem(ip: string, rules: Pick<AddressRules, 'allowPrivate'>): string | null {
  const parsed = parseAddress(ip);
  if (!parsed) return 'invalid';
  if (isMetadata(parsed)) return 'metadata';
  if (rules.allowPrivate) return null;
  const range = parsed.range();
  if (range !== 'unicast') return range;
  if (isLocalInterfaceAddress(parsed)) return 'this server';
  return null;
}

/**
 * Lower-cases a host, strips IPv6 brackets, a trailing dot and an IPv6 zone, and writes an IP address in its
 * canonical form whatever way it was spelt: `0177.0.0.1`, `2130706433`, `0x7f.1`, `127.1` and
 * `::ffff:127.0.0.1` all become `127.0.0.1` (the forms inet_aton, and so getaddrinfo, accept), `::127.0.0.1`
 * becomes `::7f00:1`. WHATWG URL parsing already does this for http(s) URLs; database addresses and
 * `allowHosts` entries need it done here. Only an IPv4-mapped address is rewritten as IPv4 (a dual-stack
 * socket dials the two alike); other IPv6 forms stay IPv6, so the address dialled is the one written.
 */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.') && h.length > 1) h = h.slice(0, -1);
  const parsed = parseLiteral(h);
  if (parsed) {
    const v6 = parsed.kind() === 'ipv6' ? (parsed as ipaddr.IPv6) : null;
    return v6?.isIPv4MappedAddress() ? v6.toIPv4Address().toString() : parsed.toString();
  }
  // WHATWG URL's host parser takes the inet_aton forms too, should ipaddr.js refuse one.
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

/**
 * The one message for an address the rules refuse, used by every caller (actions, webhooks, the connectors):
 * for a private, loopback or link-local address it names the operator settings that would allow it, so a
 * self-hosted installation knows what to change. Metadata and invalid addresses no setting allows.
 *
 * @example
 *   describeRefusedAddress('10.0.0.1', '10.0.0.1', 'private', 80)
 *   // 'Refused: 10.0.0.1 is a private address (private). A self-hosted installation allows private
 *   //  addresses with ALLOW_PRIVATE_NETWORK=true, or this one with OUTBOUND_ALLOW_HOSTS=10.0.0.1:80.'
 */
export function describeRefusedAddress(host: string, address: string, problem: string, port?: number): string {
  const isLiteral = normalizeHost(host) === normalizeHost(address);
  if (problem === 'metadata') return `Refused: ${host} is a cloud metadata address`;
  if (problem === 'invalid') return `Refused: ${host} resolves to an invalid address (${address})`;
  const what = isLiteral ? `${host} is a private address (${problem})` : `${host} resolves to a private address (${address}, ${problem})`;
  const bare = normalizeHost(host);
  const hostPort = `${net.isIPv6(bare) ? `[${bare}]` : bare}:${port ?? '<port>'}`;
  return (
    `Refused: ${what}. A self-hosted installation allows private addresses with ALLOW_PRIVATE_NETWORK=true, ` +
    `or this one with OUTBOUND_ALLOW_HOSTS=${hostPort}.`
  );
}

/** Throws RefusedAddressError when the IP literal may not be used. */
export function assertAddressAllowed(host: string, address: string, rules: Pick<AddressRules, 'allowPrivate'>, port?: number): void {
  const problem = findAddressProblem(address, rules);
  if (problem) throw new RefusedAddressError(describeRefusedAddress(host, address, problem, port));
}

/**
 * A service the platform itself connects to (its PostgreSQL, its Redis). `host` is empty for a local socket,
 * which means this machine.
 */
export interface PlatformService {
  /** For the refusal message: "the platform's own database". */
  name: string;
  host: string;
  port: number;
}

/** Where a platform service listens, from its URL: `postgres://u:p@db:5432/x`, `redis://cache:6379`, or a socket. */
export function readPlatformService(name: string, url: string, defaultPort: number): PlatformService {
  const parsed = new URL(url);
  // libpq and node-postgres take `?host=` (a socket directory or a name) over the URL's host, and `?port=`.
  const host = parsed.searchParams.get('host') || decodeURIComponent(parsed.hostname);
  const port = Number(parsed.port || parsed.searchParams.get('port') || defaultPort);
  const isSocket = parsed.protocol === 'socket:' || !host || host.startsWith('/');
  return { name, host: isSocket ? '' : normalizeHost(host), port };
}

/**
 * Answers whether an address and port is one of the platform's services (names resolved at most every 30 s).
 * Throws RefusedAddressError when a service on that port has a name that does not resolve now: whether the
 * address is that service cannot be told, so the connection is refused rather than guessed allowed.
 */
export interface PlatformServices {
  findService(address: string, port: number): Promise<PlatformService | undefined>;
}

const THIS_HOST = 'this host';

/**
 * What identifies the server a connection reaches: every loopback, unspecified and local interface address is
 * this machine (PostgreSQL on 127.0.0.1 usually listens on ::1 and the public interface too); other addresses
 * are themselves, IPv6 forms of IPv4 written as the IPv4 address.
 */
function identifyAddress(ip: string): string | null {
  const parsed = parseAddress(ip);
  if (!parsed) return null;
  return isThisHost(parsed) ? THIS_HOST : parsed.toString();
}

/**
 * The platform's services as a guard checks them: an address and port is refused when the port is the
 * service's and the address reaches the same server as any address the service's host resolves to. Names
 * never count: `localhost`, `127.0.0.2`, `[::1]`, `[::ffff:127.0.0.1]` and the machine's own IP all reach a
 * PostgreSQL on 127.0.0.1.
 */
export function createPlatformServices(services: readonly PlatformService[], resolveTtlMs = 30_000): PlatformServices {
  const resolved = new Map<string, { at: number; identities: Promise<Set<string>> }>();

  function resolveIdentities(host: string): Promise<Set<string>> {
    const cached = resolved.get(host);
    if (cached && Date.now() - cached.at < resolveTtlMs) return cached.identities;
    const identities = (async () => {
      if (!host) return new Set([THIS_HOST]);
      const addresses = net.isIP(host) ? [{ address: host }] : await dns.promises.lookup(host, { all: true }).catch(() => []);
      const found = new Set(addresses.map((a) => identifyAddress(a.address)).filter((id): id is string => id !== null));
      // A name that does not resolve now is not cached: the next check asks again.
      if (!found.size) resolved.delete(host);
      return found;
    })();
    resolved.set(host, { at: Date.now(), identities });
    return identities;
  }

  return {
    async findService(address, port) {
      const identity = identifyAddress(address);
      if (identity === null) return undefined;
      for (const service of services) {
        if (service.port !== port) continue;
        const identities = await resolveIdentities(service.host);
        if (!identities.size)
          throw new RefusedAddressError(
            `Refused: port ${port} is where ${service.name} listens, and its address (${service.host}) does not resolve now`,
          );
        if (identities.has(identity)) return service;
      }
      return undefined;
    },
  };
}

/** Throws RefusedAddressError when any of the addresses, on this port, is one of the platform's services. */
export async function assertNotPlatformService(
  host: string,
  port: number,
  addresses: readonly { address: string }[],
  rules: AddressRules,
): Promise<void> {
  if (!rules.platformServices) return;
  for (const { address } of addresses) {
    const service = await rules.platformServices.findService(address, port);
    if (service) {
      const where = normalizeHost(host) === normalizeHost(address) ? `${host}:${port}` : `${host}:${port} (${address})`;
      throw new RefusedAddressError(`Refused: ${where} is ${service.name}`);
    }
  }
}

export interface GuardedLookupOptions extends AddressRules {
  /** The port being connected to, so `allowHosts` entries with a port and platform services can match. */
  port?: number;
}

/**
 * A `lookup` for net/tls/undici connect options: resolves with dns.lookup (so /etc/hosts counts, as it does
 * for any connection) and refuses the connection when any resolved address is forbidden, or is a platform
 * service on `port`. Answers both the single-address form and the `{ all: true }` form Node's happy-eyeballs
 * connect uses.
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
          if (problem)
            return callback(new RefusedAddressError(describeRefusedAddress(hostname, address, problem, options.port)), '', undefined);
        }
      }
      const answer = () => (lookupOptions.all ? callback(null, addresses) : callback(null, addresses[0].address, addresses[0].family));
      if (!options.platformServices || options.port === undefined) return answer();
      assertNotPlatformService(hostname, options.port, addresses, options).then(answer, (refused: Error) =>
        callback(refused, '', undefined),
      );
    });
  };
}

/**
 * Resolves a host for a connection made elsewhere (a database driver) and returns the addresses to pin,
 * refusing forbidden ones and the platform's services. IP literals are checked without a lookup.
 */
export async function resolveGuarded(host: string, port: number, rules: AddressRules): Promise<dns.LookupAddress[]> {
  const h = normalizeHost(host);
  assertNotOwnHost(h, port, rules);
  const skipRules = isHostAllowed(rules.allowHosts, h, port);
  const family = net.isIP(h);
  const addresses = family ? [{ address: h, family }] : await dns.promises.lookup(h, { all: true });
  if (!addresses.length) throw Object.assign(new Error(`No address for ${host}`), { code: 'ENOTFOUND' });
  if (!skipRules) for (const { address } of addresses) assertAddressAllowed(host, address, rules, port);
  await assertNotPlatformService(host, port, addresses, rules);
  return addresses;
}
