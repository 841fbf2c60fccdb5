#!/usr/bin/env bash
# Stops the virtlogd/libvirtd processes that scripts/ensure-libvirtd.sh started (by pid), nothing else.
set -u
f=/run/virtseed/started.pids
[ -f "$f" ] || exit 0
while read -r pid; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done < "$f"
rm -f "$f"
