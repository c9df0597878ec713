# The portal's server image: the API server and the web portal it serves, nothing of the desktop
# shell. Build: `docker build -t portal .` (or `podman build`). Run and deploy: docs/container.md.
#
# BASE is any Debian-based image with Node.js 20.19+ and npm in /usr/local: the official Node 24 one
# by default (Node 20 is past its end of life, and a license check costs a third less CPU on 24: see
# bench/README.md); the image test (tests/deploy/container-image.test.ts) swaps in a local one made
# with debootstrap, as machines without access to a registry cannot pull it.
ARG BASE=node:24-bookworm-slim

# ---- build: every dependency, then the compiled server (dist/) and the web portal (out/renderer)
FROM ${BASE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# No install scripts: Electron's would download the desktop runtime, which the server never uses.
# better-sqlite3 is built on its own: the build renders the public pages with the default
# catalogue's plans, read from the server on an empty SQLite database.
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild better-sqlite3
COPY . .
RUN npm run build:server && npm run build:web

# ---- production-dependencies: only what the compiled server imports, with better-sqlite3 built
FROM ${BASE} AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
# better-sqlite3 is the only install script the server needs: its prebuilt binary is fetched, or it is
# compiled when the base has a compiler. (Optional dependencies stay: they carry @node-rs/argon2's
# prebuilt binary; keytar, the desktop's keychain, comes along unbuilt and is never loaded.)
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && npm rebuild better-sqlite3 \
  && npm cache clean --force

# ---- runtime
FROM ${BASE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
# The layout the server expects: package.json (its version) beside dist/ and out/renderer (WEB_DIR's
# default), all owned by root and read-only to the server.
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /src/package.json ./package.json
COPY --from=build /src/dist ./dist
COPY --from=build /src/out/renderer ./out/renderer
# The data folder (SQLite database, generated signing keys, mail outbox, releases) is the one place
# the server writes: a volume, owned by the unprivileged user (uid 1000, `node` in the official image).
RUN mkdir -p /data && chown 1000:1000 /data
VOLUME ["/data"]
USER 1000:1000
EXPOSE 8080
# /api/v1/health/ready answers 503 while the database is unreachable or the server drains after SIGTERM.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/v1/health/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node is PID 1 and handles SIGTERM itself: readiness fails, requests drain, then it stops.
CMD ["node", "dist/server/main.js"]
