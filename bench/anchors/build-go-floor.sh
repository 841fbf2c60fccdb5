#!/usr/bin/env bash
# Builds terraform-provider-floor (go-floor/: the smallest go-plugin tfplugin6 provider, one resource type
# `floor_data` shaped like terraform_data, the bench's floor for any plugin provider; and, when the environment
# variable FLOOR_DOMAIN_SCHEMA names a schema JSON file at provider start, `floor_domain`, an echo resource with
# exactly virtseed_domain's schema, the floor for that schema) into the filesystem mirror $1:
#   $1/registry.terraform.io/virtseed/floor/0.1.0/<os>_<arch>/terraform-provider-floor_v0.1.0
# From Debian's packages only (installed with apt-get when missing): Go, go-plugin 1.0.1, gRPC, protoc and
# protoc-gen-go 1.3 (golang/protobuf, its `plugins=grpc` writes the service too), go-cty 1.12 (floor_domain's
# values; its /v4 and /v13 imports resolve in GOPATH mode by Go's minimal module compatibility, as Debian's
# folders hold the go.mod naming them), built with GO111MODULE=off and GOPATH=<temporary folder>:/usr/share/gocode. Go code is generated from provider/src/plugin/proto/tfplugin6.proto
# into the temporary GOPATH on every build (never committed); Go's build cache makes a rebuild quick.
# Quiet on success; the last stdout line is the mirror folder. On failure, prints the failing tool's output.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mirror=${1:?usage: build-go-floor.sh MIRROR_DIR}
mkdir -p "$mirror"
mirror=$(cd "$mirror" && pwd)

log=$(mktemp)
gopath=$(mktemp -d)
trap 'rm -rf "$gopath" "$log"' EXIT
quiet() { # runs "$@" with its output kept back, printed only when it fails
  if ! "$@" >"$log" 2>&1; then
    echo "build-go-floor: failed: $*" >&2
    cat "$log" >&2
    exit 1
  fi
}

packages=(golang-go golang-github-hashicorp-go-plugin-dev golang-google-grpc-dev golang-goprotobuf-dev protobuf-compiler
  golang-github-zclconf-go-cty-dev)
installed=$(dpkg-query -W -f='${Status}\n' "${packages[@]}" 2>/dev/null | grep -c '^install ok installed$' || true)
if [ "$installed" != "${#packages[@]}" ]; then
  quiet apt-get update -qq
  quiet env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${packages[@]}"
fi

src="$gopath/src/terraform-provider-floor"
mkdir -p "$src/tfplugin6"
cp "$here"/go-floor/*.go "$src/"
quiet protoc --proto_path="$root/provider/src/plugin/proto" --go_out="plugins=grpc:$src/tfplugin6" tfplugin6.proto

os=$(GO111MODULE=off go env GOOS)
arch=$(GO111MODULE=off go env GOARCH)
target="$mirror/registry.terraform.io/virtseed/floor/0.1.0/${os}_${arch}"
mkdir -p "$target"
(cd "$src" && quiet env GO111MODULE=off GOPATH="$gopath:/usr/share/gocode" GOFLAGS= CGO_ENABLED=0 \
  go build -trimpath -o "$target/terraform-provider-floor_v0.1.0" .)
echo "$mirror"
