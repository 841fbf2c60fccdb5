# Sourced by scripts/test-all.sh (and by hand before running integration tests with jest): the terraform CLI config
# and provider mirror of this checkout's test runs, under .test-run/ (ignored by git).
#   . scripts/test-env.sh && VIRTSEED_SKIP_BUILD=1 VIRTSEED_MIRROR="$VIRTSEED_TEST_MIRROR" bash scripts/install-provider.sh
_vs_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export VIRTSEED_TEST_MIRROR="$_vs_root/.test-run/plugins"
export TF_CLI_CONFIG_FILE="$_vs_root/.test-run/terraformrc"
export CHECKPOINT_DISABLE=1
unset _vs_root
