#!/bin/sh
# Installs Node and npm into /usr/local from the npm registry, for the image's build stage (Dockerfile).
# Node: the registry's `node-linux-<arch>` package, which carries the official Node binary and headers (bin/node,
# include/node) at the version given; npm: the `npm` package. Each tarball is checked against the sha512 integrity
# the registry publishes for it (this guards against a damaged download, like the s6-overlay checksums).
# Usage: install-node.sh <node version> <npm version> [registry]
set -eu
node_version="$1"
npm_version="$2"
registry="${3:-https://registry.npmjs.org}"

case "$(dpkg --print-architecture)" in
  amd64) arch=x64 ;;
  arm64) arch=arm64 ;;
  *)
    echo "install-node: no node-linux package for $(dpkg --print-architecture)" >&2
    exit 1
    ;;
esac

# fetch <package> <version> <dest.tgz>: the version's tarball, checked against its published integrity.
fetch() {
  meta="$(curl -fsSL "$registry/$1/$2")"
  url="$(printf '%s' "$meta" | python3 -c 'import json, sys; print(json.load(sys.stdin)["dist"]["tarball"])')"
  want="$(printf '%s' "$meta" | python3 -c 'import json, sys; print(json.load(sys.stdin)["dist"]["integrity"])')"
  curl -fsSL -o "$3" "$url"
  got="sha512-$(openssl dgst -sha512 -binary "$3" | base64 -w0)"
  if [ "$got" != "$want" ]; then
    echo "install-node: $1@$2 does not match the registry's integrity ($got, expected $want)" >&2
    exit 1
  fi
}

tmp="$(mktemp -d)"
fetch "node-linux-$arch" "$node_version" "$tmp/node.tgz"
tar -xzf "$tmp/node.tgz" -C "$tmp"
install -m 0755 "$tmp/package/bin/node" /usr/local/bin/node
mkdir -p /usr/local/include
cp -a "$tmp/package/include/node" /usr/local/include/

fetch npm "$npm_version" "$tmp/npm.tgz"
mkdir -p /usr/local/lib/node_modules/npm
tar -xzf "$tmp/npm.tgz" -C /usr/local/lib/node_modules/npm --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm
ln -sf ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx
rm -rf "$tmp"

[ "$(node --version)" = "v$node_version" ] || {
  echo "install-node: node --version says $(node --version), expected v$node_version" >&2
  exit 1
}
echo "install-node: node $(node --version), npm $(npm --version)"
