import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import classes from './chat.module.css';

/** A place on the map as the form holds it; null until both coordinates are on the globe. */
export interface MapPoint {
  latitude: number;
  longitude: number;
}

interface ChatLocationMapProps {
  /** A Leaflet tile address template and its provider's credit (HTML), as the operator set them. */
  tileUrl: string;
  attribution: string;
  point: MapPoint | null;
  onPick: (point: MapPoint) => void;
}

/** The whole world, before a point is set; a street's scale once it is. */
const WORLD_ZOOM = 1;
const PLACE_ZOOM = 13;
/** About 10 cm on the ground: as precise as a pin dropped by hand needs. */
const toSixPlaces = (value: number) => Number(value.toFixed(6));

// A pin drawn in CSS and SVG, so no marker image has to be found by a path Leaflet guesses from its stylesheet.
const PIN_ICON = L.divIcon({
  className: classes.mapPin,
  html: '<svg viewBox="0 0 24 32" width="28" height="36" aria-hidden="true"><path d="M12 0C5.4 0 0 5.3 0 11.9 0 20.8 12 32 12 32s12-11.2 12-20.1C24 5.3 18.6 0 12 0z" fill="#c92a2a"/><circle cx="12" cy="12" r="4.5" fill="#fff"/></svg>',
  iconSize: [28, 36],
  iconAnchor: [14, 36],
});

/**
 * The location form's map (plain Leaflet, loaded only when the form opens with a map): a click puts the pin there,
 * the pin drags, and coordinates typed in the form move it. Keyboard users have the typed fields; the map has no
 * focus stop of its own beyond its zoom buttons.
 */
export default function ChatLocationMap({ tileUrl, attribution, point, onPick }: ChatLocationMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const marker = useRef<L.Marker | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  /** The point the map itself last gave: the map does not re-centre on its own pick. */
  const picked = useRef<MapPoint | null>(null);

  /** A point the map gave (a click, the pin dropped): to the form, and remembered as the map's own. */
  const give = useRef((latlng: L.LatLng) => {
    // A click on a copy of the world east or west of the first still names a longitude within -180..180.
    const { lat, lng } = latlng.wrap();
    const next = { latitude: toSixPlaces(lat), longitude: toSixPlaces(lng) };
    picked.current = next;
    pick.current(next);
  });

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const created = L.map(element, { keyboard: false, worldCopyJump: true, zoomSnap: 1 });
    created.setView([0, 0], WORLD_ZOOM);
    L.tileLayer(tileUrl, { attribution, maxZoom: 19 }).addTo(created);
    created.on('click', (event: L.LeafletMouseEvent) => give.current(event.latlng));
    map.current = created;
    // The form opens in a dialog that animates: the map measures itself again whenever its box changes.
    const resize = new ResizeObserver(() => created.invalidateSize());
    resize.observe(element);
    return () => {
      resize.disconnect();
      created.remove();
      map.current = null;
      marker.current = null;
    };
  }, [tileUrl, attribution]);

  useEffect(() => {
    const current = map.current;
    if (!current) return;
    if (!point) {
      marker.current?.remove();
      marker.current = null;
      return;
    }
    const latlng = L.latLng(point.latitude, point.longitude);
    if (marker.current) marker.current.setLatLng(latlng);
    else {
      const pin = L.marker(latlng, { draggable: true, icon: PIN_ICON, keyboard: false, title: 'The location shared' });
      pin.on('dragend', () => give.current(pin.getLatLng()));
      marker.current = pin.addTo(current);
    }
    const isOwnPick = picked.current?.latitude === point.latitude && picked.current.longitude === point.longitude;
    if (!isOwnPick) current.setView(latlng, Math.max(current.getZoom(), PLACE_ZOOM));
  }, [point]);

  // No name of its own: the form's hint above it says what it is for, and a screen reader has the fields.
  return <div ref={container} className={classes.map} data-testid="location-map" />;
}
