#!/bin/sh
# Drops from the pruned build what the runtime never loads (Dockerfile, build stage), so the image stays small:
# uWebSockets.js binaries for other platforms and Node ABIs (uws-pack ships all of them, ~130 MB), source maps,
# type declarations and native build intermediates. Run in the app dir after `npm prune --omit=dev`.
set -eu
uws_keep="uws_$(node -p 'process.platform + "_" + process.arch + "_" + process.versions.modules').node"
uws_bin=node_modules/uws-pack/dist/bin
[ -f "$uws_bin/$uws_keep" ] || {
  echo "slim-runtime: uws-pack has no $uws_keep for this Node" >&2
  exit 1
}
find "$uws_bin" -name 'uws_*.node' ! -name "$uws_keep" -delete
find dist node_modules \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -type f -delete
# node-gyp's object files and dependency lists beside each built addon (the .node files stay).
find node_modules -path '*/build/Release/obj.target' -type d -prune -exec rm -rf {} +
find node_modules -path '*/build/Release/.deps' -type d -prune -exec rm -rf {} +
# Scope folders npm prune emptied (e.g. @tanstack, whose packages are the console's dev dependencies).
find node_modules -mindepth 1 -type d -empty -delete
