# syntax=docker/dockerfile:1
# Spool as one container: the Node app supervised by s6-overlay v3 (init-spool-config oneshot, svc-spool longrun).
#   docker build -t spool .
# Building needs the npm registry (Node itself comes from its node-linux-<arch> package) and, for s6-overlay,
# GitHub releases. Where the official bases or GitHub cannot be reached (the project's CI), two build arguments
# switch to what can: DEBIAN_BASE=<a Debian bookworm rootfs image> and SUPERVISOR=debian-s6 (scripts/image.mjs does so in CI).
# See docs/deployment.md for running it (volumes, FUSE flags, PUID/PGID, read-only root).

# A Debian 12 image: debian:bookworm-slim, or an mmdebstrap rootfs imported with `podman import` (scripts/image.mjs).
ARG DEBIAN_BASE=docker.io/library/debian:bookworm-slim

# ---- build: Node and npm from the npm registry, the native addons (yencode, lmdb, our FUSE 3, TCP options, memory and
# GF16 addons) with python3/make/g++ and the FUSE 3 headers; the server is compiled with tsc and the console with
# vite, then dev dependencies (the console's React & co., bundled by vite) and everything else the runtime never
# loads are dropped.
FROM ${DEBIAN_BASE} AS build
# Behind a TLS-inspecting proxy, pass its CA as a build secret (never stored in a layer):
#   docker build --secret id=extra-ca-certificates,src=/path/to/proxy-ca.crt -t spool .
# It is added to this stage's trust store (curl, and npm through NODE_EXTRA_CA_CERTS); the runtime stage never
# sees it.
RUN --mount=type=secret,id=extra-ca-certificates,target=/run/secrets/extra-ca-certificates \
    apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl openssl python3 make g++ pkg-config libfuse3-dev \
 && rm -rf /var/lib/apt/lists/* \
 && if [ -s /run/secrets/extra-ca-certificates ]; then \
      cp /run/secrets/extra-ca-certificates /usr/local/share/ca-certificates/extra.crt && update-ca-certificates; \
    fi
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
# The Node version the image runs (node-linux-<arch> on the npm registry carries the official binary and headers).
# The lock file is written by npm 11 and package.json's allowScripts is an npm 11 field; use the same major.
ARG NODE_VERSION=20.20.2
ARG NPM_VERSION=11.19.1
ARG NPM_REGISTRY=https://registry.npmjs.org
COPY deploy/image/install-node.sh /tmp/
RUN /tmp/install-node.sh "${NODE_VERSION}" "${NPM_VERSION}" "${NPM_REGISTRY}"
# node-gyp builds against the headers install-node.sh put in /usr/local/include/node instead of downloading them.
ENV npm_config_nodedir=/usr/local \
    npm_config_registry=${NPM_REGISTRY}
WORKDIR /src
COPY package.json package-lock.json ./
# package.json's install script; it skips our addons here (their sources come with the rest, built below).
COPY scripts/build-native.mjs scripts/
# Not `npm ci`, for the reason in .ci/run: the lock cannot list other platforms' optional binaries (the mirror it
# was made from lacks them), so `npm ci` refuses it; `npm install` honours every locked version it does list.
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build:native \
 && npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && deploy/image/slim-runtime.sh

# ---- s6-overlay: fetched and checked in its own stage so the runtime image needs neither curl nor xz.
# SUPERVISOR=debian-s6 leaves it empty; the runtime then installs Debian's s6 and execline and deploy/image/init.
FROM ${DEBIAN_BASE} AS s6
ARG SUPERVISOR=s6-overlay
ARG S6_OVERLAY_VERSION=3.2.0.2
ARG TARGETARCH
RUN --mount=type=secret,id=extra-ca-certificates,target=/run/secrets/extra-ca-certificates \
    set -eu; \
    mkdir -p /s6root; \
    if [ "${SUPERVISOR}" = debian-s6 ]; then exit 0; fi; \
    [ "${SUPERVISOR}" = s6-overlay ] || { echo "SUPERVISOR must be s6-overlay or debian-s6" >&2; exit 1; }; \
    case "${TARGETARCH:-$(dpkg --print-architecture)}" in \
      amd64) arch=x86_64 ;; \
      arm64) arch=aarch64 ;; \
      *) echo "unsupported architecture: ${TARGETARCH}" >&2; exit 1 ;; \
    esac; \
    apt-get update; \
    apt-get install -y --no-install-recommends ca-certificates curl xz-utils; \
    if [ -s /run/secrets/extra-ca-certificates ]; then \
      cp /run/secrets/extra-ca-certificates /usr/local/share/ca-certificates/extra.crt; update-ca-certificates; \
    fi; \
    base="https://github.com/just-containers/s6-overlay/releases/download/v${S6_OVERLAY_VERSION}"; \
    mkdir -p /tmp/s6; cd /tmp/s6; \
    for part in noarch "$arch"; do \
      curl -fsSLO "$base/s6-overlay-$part.tar.xz"; \
      curl -fsSLO "$base/s6-overlay-$part.tar.xz.sha256"; \
      sha256sum -c "s6-overlay-$part.tar.xz.sha256"; \
      tar -C /s6root -Jxpf "s6-overlay-$part.tar.xz"; \
    done

# ---- pg-client: pg_dump and pg_restore for backups of a PostgreSQL store (docs/backups.md). Debian's
# postgresql-client would bring perl (postgresql-client-common's wrapper scripts) and more into the runtime, 63 MB of
# it, so it is installed here and only the two programs are copied; the runtime gets their libpq from Debian's libpq5.
FROM ${DEBIAN_BASE} AS pg-client
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-client-15 \
 && rm -rf /var/lib/apt/lists/*

# ---- runtime: glibc (uWebSockets.js has no musl build, so no Alpine), FUSE 3 for the mount.
FROM ${DEBIAN_BASE} AS runtime
ARG SUPERVISOR=s6-overlay
# fuse3: fusermount3 (setuid root, how the unprivileged service user mounts) and libfuse3, which our addon loads.
# rclone: the rcd Spool starts for the rclone mount backend when no rcd of the operator's answers (docs/fuse.md).
# libnss-extrausers: names for PUID/PGID on a read-only root (init-spool-config writes them to /run/spool-users).
# libpq5: the client library (and its TLS, Kerberos and LDAP libraries) of pg_dump and pg_restore, copied below.
# Documentation, man pages and translations are dropped (as Debian's slim images do).
RUN set -eu; \
    extra=""; \
    if [ "${SUPERVISOR}" = debian-s6 ]; then extra="s6 execline"; fi; \
    apt-get update; \
    apt-get install -y --no-install-recommends fuse3 rclone libnss-extrausers libpq5 $extra; \
    apt-get clean; \
    rm -rf /var/lib/apt/lists/* /var/cache/debconf/*-old /var/log/apt /var/log/dpkg.log \
      /usr/share/doc/* /usr/share/man/* /usr/share/locale/* /usr/share/info/*; \
    sed -i 's/^#\s*user_allow_other/user_allow_other/' /etc/fuse.conf; \
    grep -q '^user_allow_other' /etc/fuse.conf; \
    useradd --uid 911 --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin abc; \
    mkdir -p /config /mnt/spool; \
    sed -i -E 's/^(passwd|group):.*/\1: files extrausers/' /etc/nsswitch.conf; \
    rm -rf /var/lib/extrausers; \
    ln -s /run/spool-users /var/lib/extrausers
COPY --from=build /usr/local/bin/node /usr/local/bin/node
COPY --from=s6 /s6root/ /
COPY --from=pg-client /usr/lib/postgresql/15/bin/pg_dump /usr/lib/postgresql/15/bin/pg_restore /usr/lib/postgresql/15/bin/
COPY deploy/image/init /usr/local/lib/spool/debian-s6-init
# Modes come from git: the run scripts and data/check are committed executable.
COPY s6-overlay/ /etc/s6-overlay/
RUN set -eu; \
    if [ "${SUPERVISOR}" = debian-s6 ]; then ln -s /usr/local/lib/spool/debian-s6-init /init; fi; \
    test -x /init; \
    ln -s /etc/s6-overlay/s6-rc.d/svc-spool/data/start /usr/local/bin/spool-start; \
    ln -s /usr/lib/postgresql/15/bin/pg_dump /usr/lib/postgresql/15/bin/pg_restore /usr/local/bin/; \
    pg_dump --version; \
    pg_restore --version
WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
# Our addons, where appliance/addons/addon-path.ts looks for them (upwards from dist/appliance/<domain>).
COPY --from=build /src/appliance/fuse/native/build/Release/spool_fuse.node ./appliance/fuse/native/build/Release/
COPY --from=build /src/appliance/nntp/native/build/Release/spool_tcp.node ./appliance/nntp/native/build/Release/
COPY --from=build /src/appliance/par2/native/build/Release/spool_gf16.node ./appliance/par2/native/build/Release/
COPY --from=build /src/appliance/addons/native/build/Release/spool_memory.node ./appliance/addons/native/build/Release/

# Spool's own settings: data in the /config volume, the port fixed inside the container (remap it with -p).
ENV SPOOL_DATA=/config \
    SPOOL_PORT=8080 \
    SPOOL_HOST=0.0.0.0 \
    SPOOL_APP_DIR=/app \
    SPOOL_USER=abc \
    SPOOL_MOUNT_DIR=/mnt/spool \
    PUID=911 \
    PGID=911 \
    UMASK=022 \
    SPOOL_IN_CONTAINER=1 \
    NODE_ENV=production
# s6-overlay:
# - S6_KEEP_ENV=1: services see the container's environment (PUID, SPOOL_*) without with-contenv, so the same
#   plain sh scripts run under s6-overlay and under Debian's s6-svscan.
# - S6_GLOBAL_PATH: node lives in /usr/local/bin, which s6-overlay's default PATH for services leaves out.
# - S6_BEHAVIOUR_IF_STAGE2_FAILS=2: a failed init (bad PUID, run with --user) stops the container instead of
#   leaving it running half set up.
# - S6_CMD_WAIT_FOR_SERVICES_MAXTIME=0: no limit on startup (the 5 s default is too short for a first start on a
#   slow NAS, e.g. the chown of a big /config); readiness still comes from /ping.
# - S6_SERVICES_GRACETIME: Spool finishes requests in progress on SIGTERM and force-exits after 20 s.
ENV S6_KEEP_ENV=1 \
    S6_GLOBAL_PATH=/command:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    PATH=/command:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    S6_BEHAVIOUR_IF_STAGE2_FAILS=2 \
    S6_CMD_WAIT_FOR_SERVICES_MAXTIME=0 \
    S6_SERVICES_GRACETIME=22000 \
    S6_VERBOSITY=1

VOLUME /config
EXPOSE 8080
# /ping answers 503 while the app starts or restarts, 200 once it serves; the same probe gates s6 readiness.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["/etc/s6-overlay/s6-rc.d/svc-spool/data/check"]
ENTRYPOINT ["/init"]
