import type { FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';

/** Facebook's JS SDK, and the origins it frames and calls (Embedded Signup only). */
const FACEBOOK_SDK = 'https://connect.facebook.net';
const FACEBOOK_FRAMES = ['https://www.facebook.com', 'https://web.facebook.com', 'https://business.facebook.com'];

/** A year, with subdomains: the usual HSTS policy once a site is served over HTTPS. */
const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

/**
 * Security headers for the console, the API and the server-rendered pages (sandbox checkout, API docs):
 * a Content-Security-Policy that loads scripts only from our origin and lets no other site frame us
 * (frame-ancestors 'none', X-Frame-Options DENY), nosniff, `Referrer-Policy: no-referrer` (reset tokens live
 * in the reset page's path). Styles may be inline: Mantine, CodeMirror and the charts set style attributes
 * and style elements at run time.
 *
 * No `upgrade-insecure-requests`, and HSTS only on requests that arrived over HTTPS (directly or, with
 * TRUST_PROXY, through a proxy that says so): a self-hosted console served over plain HTTP on a LAN address
 * must keep working. Gateway traffic (`isGatewayTraffic` routes) gets none of this; the headers would cost
 * every hop and a gateway reads none of them.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: { embeddedSignup?: boolean; mapTileSource?: string | null } = {},
): Promise<void> {
  // WhatsApp Embedded Signup, when set up (docs/whatsapp-connectors.md): the console loads Facebook's JS SDK, which
  // talks to facebook.com through frames and opens its signup in a popup. Nothing of Facebook's otherwise.
  const facebook: Record<string, string[]> = options.embeddedSignup
    ? { 'script-src': ["'self'", FACEBOOK_SDK], 'frame-src': FACEBOOK_FRAMES, 'connect-src': ["'self'", ...FACEBOOK_FRAMES] }
    : {};
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        ...facebook,
        'frame-ancestors': ["'none'"],
        'upgrade-insecure-requests': null,
        'style-src': ["'self'", "'unsafe-inline'"],
        'font-src': ["'self'", 'data:'],
        // The location form's map tiles, from the one host MAP_TILE_URL names (images only; nothing when the map is off).
        'img-src': ["'self'", 'data:', 'blob:', ...(options.mapTileSource ? [options.mapTileSource] : [])],
        // A file the simulated phone sent plays from the page's own copy.
        'media-src': ["'self'", 'blob:'],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
  });
  // A callback rather than an async hook: it runs on every hop, and a promise for nothing is most of its cost.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.protocol === 'https' && !request.routeOptions.config?.isGatewayTraffic)
      reply.header('strict-transport-security', HSTS_VALUE);
    done(null, payload);
  });
}
