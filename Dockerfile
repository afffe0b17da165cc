# Modelyard's container image: `docker build -t modelyard .`, then
# `docker run -p 3000:3000 -v modelyard-data:/app/data modelyard` (README, "Run with Docker").
#
# Two stages on node:20-bookworm-slim. The build stage installs the locked dependencies, compiles
# better-sqlite3 against Node's own headers (npm_config_nodedir: no download of them), builds the
# web app and prunes the dev dependencies; the runtime stage copies what the server and the
# `modelyard` command need and runs them as the unprivileged `node` user.
#
# Behind a TLS-inspecting proxy, hand its certificate authority to the build as a secret (it is
# used by npm only, and is in no layer):
#   DOCKER_BUILDKIT=1 docker build --secret id=extra_ca,src="$NODE_EXTRA_CA_CERTS" -t modelyard .
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local \
    npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false
COPY package.json package-lock.json ./
RUN --mount=type=secret,id=extra_ca \
    --mount=type=cache,target=/root/.npm \
    if [ -s /run/secrets/extra_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/extra_ca; fi; \
    npm ci \
 && node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"
COPY . .
RUN npm run build
# Then the production dependencies only: prune resolves the tree again, which asks the registry
# (from the cache when it can); TypeScript (an optional peer of @react-router/node, 23 MB) and
# better-sqlite3's sources and objects (all but the addon, 26 MB) are not needed at run time.
RUN --mount=type=secret,id=extra_ca \
    --mount=type=cache,target=/root/.npm \
    if [ -s /run/secrets/extra_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/extra_ca; fi; \
    npm prune --omit=dev --prefer-offline \
 && rm -rf node_modules/.cache \
 && rm -rf node_modules/typescript \
 && cd node_modules/better-sqlite3 && mv build/Release/better_sqlite3.node /tmp/ \
 && rm -rf build deps src && mkdir -p build/Release && mv /tmp/better_sqlite3.node build/Release/ && cd /app \
 && node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"

FROM ${NODE_IMAGE}
LABEL org.opencontainers.image.title=modelyard
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    MODELYARD_SKIP_BUILD=1 \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072
COPY --from=build /app/package.json /app/package-lock.json /app/tsconfig.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/bin ./bin
COPY --from=build /app/cli ./cli
COPY --from=build /app/server ./server
COPY --from=build /app/app ./app
COPY --from=build /app/catalogue ./catalogue
COPY --from=build /app/public ./public
# The SQLite database (when DATABASE_URL names no other) lives in /app/data: keep it in a volume.
RUN mkdir -p /app/data && chown node:node /app/data \
 && ln -s /app/bin/modelyard.mjs /usr/local/bin/modelyard
VOLUME /app/data
USER node
EXPOSE 3000
# The liveness route; the first start loads the bundled catalogue, hence the start period.
HEALTHCHECK --interval=10s --timeout=5s --start-period=180s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# npm start's command line (package.json), without npm in between so the server gets the signals:
# MALLOC_ARENA_MAX and MALLOC_MMAP_THRESHOLD_ above, and the same node flags.
CMD ["node", "--max-old-space-size=256", "--max-semi-space-size=4", "--v8-pool-size=0", "bin/modelyard.mjs", "serve"]
