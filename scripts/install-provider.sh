#!/usr/bin/env bash
# Installs terraform-provider-virtseed where terraform (and cdktf) find it offline, from the self-contained artifact
# `npm run build` makes (dist/provider-artifact: a small executable and the bundled JavaScript file it runs with node >= 20, zipped together, SHA256SUMS):
#   $HOME/.terraform.d/plugins/registry.terraform.io/virtseed/virtseed/<version>/<os>_<arch>/terraform-provider-virtseed_v<version>
#   (and virtseed-provider.bundle.js beside it)
# via `virtseed provider install` (the same bytes from every clone of a commit, so lock files agree). The version is
# package.json's. When TF_CLI_CONFIG_FILE names a file that does not exist yet, writes a CLI config there that takes
# virtseed/* from that mirror and everything else from the registry; an existing file is left alone (a hint is
# printed). Idempotent.
# Env: VIRTSEED_SKIP_BUILD=1 skips `npm run build` (when the caller just built).
#      VIRTSEED_MIRROR=DIR installs into the filesystem mirror DIR instead of $HOME/.terraform.d/plugins, and then
#      (re)writes TF_CLI_CONFIG_FILE unconditionally when it was written by this script (the test suite's own
#      folder: nothing another checkout installs can change what the tests run).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

if [ "${VIRTSEED_SKIP_BUILD:-}" != 1 ]; then
  npm run --silent build
fi
if [ ! -d "$root/dist/provider-artifact" ] || [ ! -f "$root/dist/virtseed.js" ]; then
  echo "install-provider: $root/dist/provider-artifact is missing; run \`npm run build\` first" >&2
  exit 1
fi
mirror="${VIRTSEED_MIRROR:-$HOME/.terraform.d/plugins}"
# stdout is the CLI configuration (this script writes its own below); stderr's first line says what was installed.
installed=$(node "$root/bin/virtseed" provider install --mirror "$mirror" 2>&1 >/dev/null)
echo "install-provider: ${installed%%$'\n'*}"

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
