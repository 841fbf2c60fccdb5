#!/usr/bin/env bash
# Builds terraform-provider-virtseed and installs it where terraform (and cdktf) find it offline:
#   $HOME/.terraform.d/plugins/registry.terraform.io/virtseed/virtseed/0.1.0/<os>_<arch>/terraform-provider-virtseed_v0.1.0
# (a small sh wrapper running node on this checkout's dist/provider/src/main.js). When TF_CLI_CONFIG_FILE names
# a file that does not exist yet, writes a CLI config there that takes virtseed/* from that mirror and everything
# else from the registry; an existing file is left alone (a hint is printed). Idempotent.
# Env: VIRTSEED_SKIP_BUILD=1 skips `npm run build` (when the caller just built).
#      VIRTSEED_MIRROR=DIR installs into the filesystem mirror DIR instead of $HOME/.terraform.d/plugins, and then
#      (re)writes TF_CLI_CONFIG_FILE unconditionally when it was written by this script (the test suite's own
#      folder: nothing another checkout installs can change what the tests run).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=0.1.0
cd "$root"

if [ "${VIRTSEED_SKIP_BUILD:-}" != 1 ]; then
  npm run --silent build
fi
main="$root/dist/provider/src/main.js"
if [ ! -f "$main" ]; then
  echo "install-provider: $main is missing; run \`npm run build\` first" >&2
  exit 1
fi

case "$(uname -m)" in
  x86_64 | amd64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) arch=$(uname -m) ;;
esac
os=$(uname -s | tr '[:upper:]' '[:lower:]')
node_bin=$(command -v node)
mirror="${VIRTSEED_MIRROR:-$HOME/.terraform.d/plugins}"
dir="$mirror/registry.terraform.io/virtseed/virtseed/$version/${os}_${arch}"
exe="$dir/terraform-provider-virtseed_v$version"

mkdir -p "$dir"
tmp=$(mktemp "$dir/.install.XXXXXX")
cat > "$tmp" <<WRAPPER
#!/bin/sh
# terraform-provider-virtseed $version, installed by $root/scripts/install-provider.sh
exec "$node_bin" "$main" "\$@"
WRAPPER
chmod 0755 "$tmp"
mv -f "$tmp" "$exe"
echo "install-provider: installed $exe"

if [ -n "${TF_CLI_CONFIG_FILE:-}" ]; then
  if [ ! -e "$TF_CLI_CONFIG_FILE" ] || { [ -n "${VIRTSEED_MIRROR:-}" ] && head -n 1 "$TF_CLI_CONFIG_FILE" | grep -q "^# Written by virtseed's scripts/install-provider.sh"; }; then
    mkdir -p "$(dirname "$TF_CLI_CONFIG_FILE")"
    cat > "$TF_CLI_CONFIG_FILE" <<CONFIG
# Written by virtseed's scripts/install-provider.sh: virtseed/* from the local mirror, the rest from the registry.
provider_installation {
  filesystem_mirror {
    path    = "$mirror"
    include = ["registry.terraform.io/virtseed/*"]
  }
  direct {
    exclude = ["registry.terraform.io/virtseed/*"]
  }
}
CONFIG
    echo "install-provider: wrote CLI config $TF_CLI_CONFIG_FILE"
  elif ! grep -q 'virtseed' "$TF_CLI_CONFIG_FILE"; then
    echo "install-provider: $TF_CLI_CONFIG_FILE exists and was left alone; if it has a provider_installation block," \
      "add a filesystem_mirror { path = \"$mirror\", include = [\"registry.terraform.io/virtseed/*\"] } to it" >&2
  fi
fi
