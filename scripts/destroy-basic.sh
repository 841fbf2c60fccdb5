#!/usr/bin/env bash
# Destroys what scripts/deploy-basic.sh deployed: the domain, its seed and volumes.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/example-env.sh
npx cdktf destroy basic --auto-approve --skip-provider-lock
