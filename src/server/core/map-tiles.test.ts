import { describe, expect, it } from 'vitest';
import { DEFAULT_MAP_TILE_URL, isTileUrl, toTileSource } from './map-tiles';

describe('map tiles', () => {
  it('takes http(s) templates with {z}, {x} and {y}, a {s} subdomain at most on the host', () => {
    expect(isTileUrl(DEFAULT_MAP_TILE_URL)).toBe(true);
    expect(isTileUrl('https://{s}.tile.example.com/{z}/{x}/{y}.png')).toBe(true);
    expect(isTileUrl('http://127.0.0.1:8090/tiles/{z}/{x}/{y}.png?key=abc')).toBe(true);
    expect(isTileUrl('https://tile.example.com/{z}/{x}.png')).toBe(false);
    expect(isTileUrl('ftp://tile.example.com/{z}/{x}/{y}.png')).toBe(false);
    expect(isTileUrl('//tile.example.com/{z}/{x}/{y}.png')).toBe(false);
    expect(isTileUrl('https://{z}.example.com/{z}/{x}/{y}.png')).toBe(false);
    expect(isTileUrl("https://a.example.com 'unsafe-inline'/{z}/{x}/{y}")).toBe(false);
    expect(isTileUrl('https://user@tile.example.com/{z}/{x}/{y}.png')).toBe(false);
  });

  it("names the template's host alone as the image source, a wildcard for {s}, none when the map is off", () => {
    expect(toTileSource(DEFAULT_MAP_TILE_URL)).toBe('https://tile.openstreetmap.org');
    expect(toTileSource('https://{s}.Tile.Example.com/{z}/{x}/{y}.png')).toBe('https://*.tile.example.com');
    expect(toTileSource('http://127.0.0.1:8090/tiles/{z}/{x}/{y}.png?key=abc')).toBe('http://127.0.0.1:8090');
    expect(toTileSource('')).toBeNull();
    expect(toTileSource('https://tile.example.com/{z}/{x}.png')).toBeNull();
  });
});
