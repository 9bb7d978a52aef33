#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The container image (userspace/container): build-image builds it
# offline (buildah or podman, --network=none) from a cached debootstrap'd
# root filesystem, and podman runs it, without a network, against a
# fixture tree mounted where a DaemonSet mounts the host (--root /host):
# the report is the fixture's (its ACS redirect, its host name), never
# the container's or this machine's.  Skipped, and said so, without root,
# podman or debootstrap, or where podman cannot run a container at all
# (no user namespaces or cgroups it can use: some CI sandboxes).
# Usage: test_container.sh ROOT
set -u
root=$1
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tap.sh"
tag=localhost/p2pdiag-check:test

echo "KTAP version 1"
skip() {
	echo "ok 1 container: the image builds and runs # SKIP $1"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
}
[ "$(id -u)" = 0 ] || skip "needs root (debootstrap, the root's container storage)"
command -v podman >/dev/null || skip "podman is not installed (apt-get install podman buildah)"
command -v debootstrap >/dev/null || skip "debootstrap is not installed"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-container-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

start=$EPOCHREALTIME
if "$root/userspace/container/build-image" "$tag" >"$tmp/build.log" 2>&1; then
	size=$(podman image inspect --format '{{.Size}}' "$tag" 2>/dev/null)
	echo "# build-image took $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%d", b - a }') s; the image is $((${size:-0} / 1048576)) MiB"
	result 1 "container: build-image builds the image offline (--network=none)"
else
	result 0 "container: build-image builds the image offline (--network=none)" "$(tail -15 "$tmp/build.log")"
	summary
	exit
fi

# How this machine lets podman run a container: as it is, else with runc
# and explicit limits (crun refuses hybrid cgroup hierarchies; some
# sandboxes refuse raising RLIMIT_NOFILE/NPROC), else not at all.
opts=()
if ! podman run --rm --network=none "$tag" --version >"$tmp/probe.log" 2>&1; then
	alt=(--ulimit nofile=1024:1024 --ulimit nproc=1024:1024)
	command -v runc >/dev/null && alt+=(--runtime runc)
	if podman run --rm --network=none "${alt[@]}" "$tag" --version >"$tmp/probe2.log" 2>&1; then
		opts=("${alt[@]}")
		echo "# podman runs containers here only with ${opts[*]}: $(tail -1 "$tmp/probe.log")"
	else
		podman rmi -f "$tag" >/dev/null 2>&1
		skip "podman cannot run a container here: $(tail -1 "$tmp/probe.log" | cut -c1-160); with ${alt[*]}: $(tail -1 "$tmp/probe2.log" | cut -c1-160)"
	fi
fi

# A host as a fixture tree: its identity files and a saved topology with
# ACS redirect on AMD root ports.
host=$tmp/host
mkdir -p "$host/proc/sys/kernel" "$host/etc"
echo fixture-node-7 >"$host/proc/sys/kernel/hostname"
echo 0f1e2d3c4b5a69788796a5b4c3d2e1f0 >"$host/etc/machine-id"
grep -v '^expect ' "$root/tests/unit/fixtures/03-amd-root-ports-acs.topo" >"$host/t.topo"
ver=$("$root/kmod/scripts/package-version")
# Each run's standard output alone is compared: podman writes its own
# warnings to standard error (Podman 5 on a cgroups v1 host, for one).
v=$(podman run --rm --network=none "${opts[@]}" "$tag" --version 2>"$tmp/version.err")
[ "${v#"p2pdiag-check $ver"}" != "$v" ] &&
	result 1 "container: the image's entry point is p2pdiag-check $ver" ||
	result 0 "container: the image's entry point is p2pdiag-check $ver" "$v $(head -5 "$tmp/version.err")"
podman run --rm --network=none "${opts[@]}" -v "$host:/host:ro" "$tag" \
	--root /host --topology-file /host/t.topo --no-color --json >"$tmp/report.json" 2>"$tmp/run.err"
rc=$?
v=$("$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
codes = sorted({f["code"] for f in d["findings"]})
print(d["source"], d["system"]["root"], d["system"]["identity"]["hostname"],
      "acs-redirect" if "acs-redirect" in codes else codes)' "$tmp/report.json" 2>&1)
[ "$rc" = 1 ] && [ "$v" = "file /host fixture-node-7 acs-redirect" ] &&
	result 1 "container: podman runs it against a fixture tree at /host: the fixture's ACS redirect and host name, exit 1" ||
	result 0 "container: podman runs it against a fixture tree at /host: the fixture's ACS redirect and host name, exit 1" \
		"exit $rc: $v $(head -5 "$tmp/run.err")"
# What the DaemonSets run: /bin/sh, timeout, and the tool on PATH.
v=$(podman run --rm --network=none "${opts[@]}" -v "$host:/host:ro" --entrypoint /bin/sh "$tag" \
	-c 'timeout -k 5 60 p2pdiag-check --topology-file /host/t.topo --quick --summary; echo "exit $?"' 2>"$tmp/loop.err")
case $v in "degraded: acs-redirect"*"exit 1") result 1 "container: the DaemonSets' loop runs in it (/bin/sh, timeout, p2pdiag-check on PATH)" ;;
	*) result 0 "container: the DaemonSets' loop runs in it (/bin/sh, timeout, p2pdiag-check on PATH)" "$v $(head -5 "$tmp/loop.err")" ;; esac
podman rmi -f "$tag" >/dev/null 2>&1
summary
