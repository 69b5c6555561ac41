# syntax=docker/dockerfile:1
#
# One Dockerfile for every Analyst app. `--build-arg APP=<name>` selects the app the image runs:
#   docker build --build-arg APP=gateway -t analyst/gateway .
# APP is one of: gateway, ingest, ledger, analysis, sampling, relay, notifier, standalone.
# Every image holds the whole compiled workspace (dist/); APP only fixes the entry point.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---------------------------------------------------------------------------------------------
# build-base: Node plus the toolchain that better-sqlite3's native addon compiles with, and Maven,
# which npm ci's postinstall (tools/fetch-model.js) uses to fetch the sentence encoder's model.
FROM ${NODE_IMAGE} AS build-base
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ maven \
 && rm -rf /var/lib/apt/lists/*
# node-gyp uses the headers that ship in the image instead of downloading them.
ENV npm_config_nodedir=/usr/local \
    npm_config_fund=false \
    npm_config_audit=false \
    npm_config_update_notifier=false
WORKDIR /src

# ---------------------------------------------------------------------------------------------
# manifests: only the package.json files of the npm workspaces (apps/*, libs/*) and the root,
# so the `npm ci` layer below is reused until a manifest or the lockfile changes. With them, what
# the install itself reads: .npmrc (onnxruntime-node's CUDA download off under the image's npm 10,
# which does not read package.json's allowScripts) and the model fetch with its catalogue.
FROM build-base AS manifests
COPY . .
RUN mkdir -p /manifests \
 && find . -path ./node_modules -prune -o -name package.json -print \
    | xargs -I{} cp --parents {} /manifests/ \
 && cp --parents package-lock.json .npmrc tools/fetch-model.js libs/encoder/models.json /manifests/

# ---------------------------------------------------------------------------------------------
# deps: every dependency (dev included: tsc, tsc-alias), native addons compiled here, and the
# sentence encoder's model in models/ (postinstall; SHA-256 checked). npm ci only warns when the
# model could not be fetched; model:fetch (--strict) fails the build instead.
FROM build-base AS deps
COPY --from=manifests /manifests/ ./
RUN npm ci --no-audit --no-fund \
 && npm run model:fetch

# ---------------------------------------------------------------------------------------------
# build: compile to dist/, then drop the dev dependencies from node_modules.
FROM deps AS build
COPY . .
# onnxruntime-node ships its binaries for every platform (about 290 MB): Linux's are kept.
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && find node_modules/onnxruntime-node/bin/napi-v6 -mindepth 1 -maxdepth 1 ! -name linux -exec rm -rf {} +

# ---------------------------------------------------------------------------------------------
# runtime: slim Node, no compiler, non-root, only dist/ + production node_modules.
FROM ${NODE_IMAGE} AS runtime
ARG APP
# Fail the build early (not at `docker run`) when APP is missing or names no compiled app.
RUN test -n "${APP}" || (echo "build with --build-arg APP=<gateway|ingest|ledger|analysis|sampling|relay|notifier|standalone>" >&2; exit 1)

# ANALYST_MODE is not set here: compose and deploy/k8s set `distributed`; the standalone image
# keeps its embedded default.
ENV NODE_ENV=production \
    ANALYST_APP=${APP} \
    ANALYST_SERVICE=${APP} \
    HOST=0.0.0.0 \
    PORT=8080
# glibc's malloc keeps freed memory in per-thread arenas and, once big blocks have been freed, takes
# later big blocks from them too, so a replica whose cache keeps loading and dropping teams never gave
# its array buffers' memory back: with these, blocks of 64 KiB and more are mapped and unmapped on
# their own, and two arenas serve the threads. Measured with bench/read-side-scale.ts (every team of
# 3.5M comments touched, 256 MiB cache): analysis RSS 515 MB without them, 396 MB with.
ENV MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=65536

WORKDIR /app
# Files stay owned by root: the app user can read but not rewrite its own code.
COPY --from=build /src/package.json ./package.json
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
# The sentence encoder's model (libs/encoder finds it in /app/models beside /app/package.json).
COPY --from=build /src/models ./models
RUN test -f "dist/apps/${APP}/src/main.js" \
    || (echo "dist/apps/${APP}/src/main.js does not exist: APP=${APP} is not an app under apps/" >&2; exit 1) \
 && mkdir -p /app/data && chown 1000:1000 /app/data
# /app/data: the standalone image's SQLite log (ANALYST_DATA_DIR=./data); mount a volume there.

# The official image's `node` user, by number so Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 8080

# Liveness only (the process answers); readiness (/readyz) is the orchestrator's business.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# `exec` replaces the shell, so node is PID 1 and receives SIGTERM itself (graceful shutdown).
CMD ["/bin/sh", "-c", "exec node \"dist/apps/${ANALYST_APP}/src/main.js\""]
