import { MOBILE_NETWORKS } from './mobile-networks.data';

/** How a session's network is shown: the operator's name, with what the gateway sent kept for hover text and exports. */
export interface NetworkLabel {
  /** What screens, charts and exports show: `MTN`, `Telecel`, `Safaricom`, `Unknown`. */
  name: string;
  /** The network code (MCC + MNC) when the gateway sent one (`62001`), else ''. */
  code: string;
  /** The hover text: `MTN Ghana, network code 62001`. */
  detail: string;
}

const BY_CODE = new Map(MOBILE_NETWORKS.map((network) => [network.code, network]));

/**
 * Brand names as the table spells them, by lower case: a gateway's `mtn` or `airteltigo` is shown `MTN` and
 * `AirtelTigo`, so the same operator named by two gateways is one series on a chart. A name is never renamed.
 */
const BY_LOWER_NAME = new Map(
  MOBILE_NETWORKS.flatMap((network) => (network.formerly ? [network.name, network.formerly] : [network.name])).map((name) => [
    name.toLowerCase(),
    name,
  ]),
);

/** `62001`, and the spaced or dashed forms some systems print (`620 01`, `620-01`). */
const NETWORK_CODE = /^(\d{3})[\s-]?(\d{2,3})$/;

/** Gateways that do not know the network send nothing, or a word meaning so. */
const UNKNOWN_NAMES = new Set(['', 'unknown', 'null', 'undefined', 'none']);

/**
 * Names a session's network as people know it. Gateways send either a network code (Africa's Talking:
 * `62001`), named from the table in mobile-networks.data.ts, or a name (Hubtel: `mtn`, the emulator: `MTN`),
 * kept as sent apart from the brand's spelling.
 *
 * @example describeNetwork('62002') // { name: 'Telecel', code: '62002', detail: 'Telecel Ghana (formerly Vodafone), network code 62002' }
 */
export function describeNetwork(network: string): NetworkLabel {
  const sent = network.trim();
  if (UNKNOWN_NAMES.has(sent.toLowerCase())) return { name: 'Unknown', code: '', detail: 'The gateway did not say which network' };
  const parts = NETWORK_CODE.exec(sent);
  if (parts) {
    const code = `${parts[1]}${parts[2]}`;
    const known = BY_CODE.get(code);
    if (!known) return { name: code, code, detail: `Network code ${code}, not in the table of known networks` };
    const formerly = known.formerly ? ` (formerly ${known.formerly})` : '';
    return { name: known.name, code, detail: `${known.name} ${known.country}${formerly}, network code ${code}` };
  }
  const name = BY_LOWER_NAME.get(sent.toLowerCase()) ?? sent;
  return { name, code: '', detail: `Sent by the gateway as "${sent}"` };
}
