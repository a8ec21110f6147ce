/**
 * The tiles under the console's location map (docs/operations.md, "Map tiles"): an address template as Leaflet
 * takes it, `https://tile.openstreetmap.org/{z}/{x}/{y}.png`, and the one host the Content-Security-Policy lets the
 * console load images from for it.
 */

/** OpenStreetMap's standard tiles: free for light use under its tile usage policy, with its credit shown. */
export const DEFAULT_MAP_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const DEFAULT_MAP_TILE_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

/** The scheme and host of a template; a host may start with `{s}.` (a provider's subdomains a, b, c). */
const TILE_ORIGIN = /^(https?):\/\/((?:\{s\}\.)?[A-Za-z0-9.-]+(?::\d{1,5})?)(?=\/)/;

/** An http(s) template with {z}, {x} and {y} in its path, on a host written out (a subdomain may be `{s}`). */
export function isTileUrl(template: string): boolean {
  return TILE_ORIGIN.test(template) && ['{z}', '{x}', '{y}'].every((part) => template.includes(part));
}

/**
 * The template's host as a CSP source: `https://tile.openstreetmap.org`, `https://*.tile.example.com` for a
 * `{s}` subdomain, `http://127.0.0.1:8090`; null when the map is off (no template) or the template is not one.
 */
export function toTileSource(template: string): string | null {
  const match = TILE_ORIGIN.exec(template);
  if (!template || !match || !isTileUrl(template)) return null;
  return `${match[1]}://${match[2]!.replace('{s}', '*').toLowerCase()}`;
}
