#!/usr/bin/env bash
# Builds the release archive of abapdbg: both binaries (the `dist` profile: fat LTO, one
# codegen unit, the hot-symbol order), the shell completions, the manual pages, the licences
# and the README, as abapdbg-<version>-<target>.tar.gz with its .sha256 next to it.
#
#   scripts/dist.sh [--bin-dir DIR] [--out DIR] [--target TRIPLE]
#
# --bin-dir packs the abapdbg and nu_plugin_abap already in DIR instead of building them
# (tests/dist.rs does, with the binaries at hand); --out is where the archive goes (default
# target/dist-archive); --target names the archive (default: rustc's host).
set -euo pipefail
cd "$(dirname "$0")/.."

bin_dir= out=target/dist-archive target=
while [ $# -gt 0 ]; do
  case $1 in
    --bin-dir) bin_dir=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --target) target=$2; shift 2 ;;
    *) echo "usage: $0 [--bin-dir DIR] [--out DIR] [--target TRIPLE]" >&2; exit 2 ;;
  esac
done
[ -n "$target" ] || target=$(rustc -vV | sed -n 's/^host: //p')
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n1)

if [ -z "$bin_dir" ]; then
  cargo build --profile dist --locked -p abapdbg -p nu_plugin_abap
  bin_dir="${CARGO_TARGET_DIR:-target}/dist"
fi

name="abapdbg-$version-$target"
mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root="$stage/$name"
mkdir -p "$root/bin" "$root/completions" "$root/man/man1"
install -m 0755 "$bin_dir/abapdbg" "$bin_dir/nu_plugin_abap" "$root/bin/"
cp completions/abapdbg.bash completions/_abapdbg completions/abapdbg.fish "$root/completions/"
cp docs/man/*.1 "$root/man/man1/"
cp LICENSE-MIT LICENSE-APACHE README.md "$root/"
cp plugin/README.md "$root/README-nu_plugin_abap.md"
# The same bytes for the same files: sorted names, no owners, the last commit's time.
mtime=$(git log -1 --format=%ct 2>/dev/null || echo 0)
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" \
  -C "$stage" -czf "$out/$name.tar.gz" "$name"
(cd "$out" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
echo "$out/$name.tar.gz"
