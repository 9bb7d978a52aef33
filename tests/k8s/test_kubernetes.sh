#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Kubernetes objects shipped in userspace/kubernetes/, offline: each
# against the API's schemas (npm's kubernetes-models, installed into a
# cache directory on the first run) and the fields its types declare
# (validate-objects.js); what each DaemonSet promises (privileged only
# where the libpci walk needs it, a read-only root and /sys, the one
# writable place features.d); and the feature file the DaemonSet's own
# command line writes, against the label syntax (nfd-labels-valid).
# Usage: test_kubernetes.sh [P2PDIAG_CHECK]
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$root/tests/tap.sh"
manifests=$root/userspace/kubernetes
# Versions that run on Debian 12's Node.js 18.
packages=(kubernetes-models@4.5.1 yaml@2.8.1)

echo "KTAP version 1"
if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
	echo "ok 1 kubernetes: the objects against the API's schemas # SKIP no npm (apt-get install npm)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
bin=${1:-$root/userspace/p2pdiag-check}
[ -n "${1:-}" ] || make -s -C "$root/userspace" >/dev/null 2>&1 ||
	result 0 "kubernetes: p2pdiag-check builds" "$(make -s -C "$root/userspace" 2>&1 | tail -5)"
cache=${P2PDIAG_CACHE:-/var/cache/p2pdiag}/npm
mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ] || cache=$root/tests/out/npm
mkdir -p "$cache"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/p2pdiag-k8s-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

installed=yes
for p in "${packages[@]}"; do
	grep -qs "\"version\": \"${p##*@}\"" "$cache/node_modules/${p%@*}/package.json" || installed=no
done
if [ "$installed" = no ] &&
	! log=$(npm install --prefix "$cache" --no-audit --no-fund --loglevel=error "${packages[@]}" 2>&1); then
	result 0 "kubernetes: npm install ${packages[*]} into $cache" "$log"
	summary
	exit 1
fi

out=$(node "$here/validate-objects.js" "$cache/node_modules" "$manifests"/*.yaml 2>&1)
objects=0
while IFS= read -r line; do
	case $line in
	"ok "*) result 1 "kubernetes: valid: ${line#ok "$manifests"/}"; objects=$((objects + 1)) ;;
	"invalid "*) result 0 "kubernetes: valid: ${line#invalid "$manifests"/}" "$line" ;;
	facts*) ;;
	*) result 0 "kubernetes: validate-objects.js says: $line" ;;
	esac
done <<<"$out"
[ "$objects" = 4 ] && result 1 "kubernetes: 4 objects in $(ls "$manifests" | wc -l) files (namespace, account, 2 DaemonSets)" ||
	result 0 "kubernetes: 4 objects in $(ls "$manifests" | wc -l) files (namespace, account, 2 DaemonSets)" "$out"

# The validator refuses what the API server would refuse or ignore.
pci=$manifests/p2pdiag-check-pci.yaml
sed 's/readOnlyRootFilesystem/readOnlyRootFileSystem/' "$pci" >"$tmp/typo.yaml"
sed 's/privileged: true/privileged: "yes"/' "$pci" >"$tmp/type.yaml"
sed 's/^kind: DaemonSet/kind: DaemonSets/' "$pci" >"$tmp/kind.yaml"
for c in "typo:readOnlyRootFileSystem is no field of SecurityContext" \
	"type:privileged must be boolean" "kind:no kind DaemonSets in apps/v1"; do
	got=$(node "$here/validate-objects.js" "$cache/node_modules" "$tmp/${c%%:*}.yaml" 2>&1)
	[[ $got == *"${c#*:}"* ]] && result 1 "kubernetes: the validator refuses a broken DaemonSet: ${c#*:}" ||
		result 0 "kubernetes: the validator refuses a broken DaemonSet: ${c#*:}" "$got"
done

# fact FILE EXPR: a Python expression over the DaemonSet's facts (f).
fact() {
	local line
	line=$(grep "^facts $1 " <<<"$out")
	"$PYTHON" -c 'import json, sys
f = json.loads(sys.argv[1])
mount = {m["path"]: m for m in f["mounts"]}
sys.exit(0 if eval(sys.argv[2]) else 1)' "${line#facts "$1" }" "$2" 2>&1
}
features=/etc/kubernetes/node-feature-discovery/features.d
check_fact() { # check_fact FILE NAME EXPR
	fact "$1" "$3" && result 1 "kubernetes: $1: $2" || result 0 "kubernetes: $1: $2" "$(grep "^facts $1 " <<<"$out")"
}
check_fact p2pdiag-check-pci.yaml "privileged (libpci reads extended config space), root filesystem read-only" \
	'f["privileged"] and f["readOnlyRootFilesystem"] and f["token"] is False'
check_fact p2pdiag-check-pci.yaml "the host's /sys mounted read-only" \
	'mount["/sys"]["hostPath"] == "/sys" and mount["/sys"]["readOnly"]'
check_fact p2pdiag-check-module.yaml "no privilege, no escalation, every capability dropped, root filesystem read-only" \
	'not f["privileged"] and f["allowPrivilegeEscalation"] is False and f["capabilitiesDropped"] == ["ALL"] and f["readOnlyRootFilesystem"] and f["token"] is False'
check_fact p2pdiag-check-module.yaml "reads the module's /sys/kernel/p2pdiag, read-only, and only that" \
	'mount["/sys/kernel/p2pdiag"]["readOnly"] and "/sys" not in mount and "--source=module" in f["command"]'
# Where they run: GPU nodes (every term asks for a GPU label), never the
# control plane; the module's only where the last check read the module,
# the libpci one everywhere else, so a node runs exactly one.
gpu_terms='f["terms"] and all(any(e["key"] in ("nvidia.com/gpu.present", "feature.node.kubernetes.io/pci-10de.present") and e["operator"] == "In" and e["values"] == ["true"] for e in t) and any(e["key"] == "node-role.kubernetes.io/control-plane" and e["operator"] == "DoesNotExist" for e in t) for t in f["terms"])'
src_terms() { echo "all(any(e['key'] == 'p2pdiag.feature.node.kubernetes.io/source' and e['operator'] == '$1' and e['values'] == ['module'] for e in t) for t in f['terms'])"; }
check_fact p2pdiag-check-pci.yaml "GPU nodes only (nvidia.com/gpu.present or NFD's pci-10de.present), no control plane, none whose module the other one reads" \
	"$gpu_terms and $(src_terms NotIn)"
check_fact p2pdiag-check-module.yaml "GPU nodes only, no control plane, only where the last check read the module (source=module)" \
	"$gpu_terms and $(src_terms In)"
v=$(for m in p2pdiag-check-pci.yaml p2pdiag-check-module.yaml; do
	line=$(grep "^facts $m " <<<"$out")
	"$PYTHON" -c 'import json, sys; f = json.loads(sys.argv[1]); print(f["name"], json.dumps(f["selector"], sort_keys=True))' "${line#facts "$m" }"
done | sort | uniq -d)
[ -z "$v" ] && result 1 "kubernetes: the two DaemonSets differ in name and selector, so both can be applied" ||
	result 0 "kubernetes: the two DaemonSets differ in name and selector, so both can be applied" "$v"
for m in p2pdiag-check-pci.yaml p2pdiag-check-module.yaml; do
	check_fact "$m" "each run is bounded (timeout), its labels expire (--nfd-expiry), a liveness probe, CPU and memory limits" \
		'"timeout -k" in f["command"] and "--nfd-expiry" in f["command"] and f["liveness"] and "cpu" in f["limits"] and "memory" in f["limits"]'
done
for m in p2pdiag-check-pci.yaml p2pdiag-check-module.yaml; do
	check_fact "$m" "the one writable host path is features.d, and --nfd-features writes in it" \
		"[p['path'] for p in f['mounts'] if p['hostPath'] and not p['readOnly']] == ['$features'] and '--nfd-features $features/' in f['command']"
	# Its command line, on a saved broken tree: the labels NFD would publish.
	line=$(grep "^facts $m " <<<"$out")
	args=$("$PYTHON" -c 'import json, re, sys
cmd = json.loads(sys.argv[1])["command"]
print(re.search(r"p2pdiag-check ([^\n]*)", cmd).group(1))' "${line#facts "$m" }")
	args=${args//$features/$tmp}
	args=${args//--source=module/}
	# the DaemonSet's options, expanded and split as its shell does
	P2PDIAG_INTERVAL=3600 P2PDIAG_FSROOT=$tmp bash -c 'bin=$2 topo=$3; eval "set -- $1"; exec "$bin" "$@" --topology-file "$topo"' \
		sh "$args" "$bin" "$root/tests/unit/tool/fixtures/switchacs.topo" >/dev/null 2>&1
	file=$tmp/p2pdiag
	why=$("$here/nfd-labels-valid" "$file" 71 2>&1)
	[ -z "$why" ] && grep -qx 'p2pdiag.feature.node.kubernetes.io/p2p=broken' "$file" &&
		result 1 "kubernetes: $m: its command writes labels NFD publishes (p2p=broken on a broken tree)" ||
		result 0 "kubernetes: $m: its command writes labels NFD publishes (p2p=broken on a broken tree)" \
			"$args: $why $(cat "$file" 2>&1)"
	# ... which expire three intervals on, say when, and give a scheduler
	# one label to select on
	v=$("$PYTHON" -c '
import calendar, re, sys, time
text = open(sys.argv[1]).read()
now = time.time()
exp = re.search(r"^# \+expiry-time=(\S+)$", text, re.M)
at = re.search(r"^p2pdiag.feature.node.kubernetes.io/checked-at=(\d+)$", text, re.M)
ok = re.search(r"^p2pdiag.feature.node.kubernetes.io/gpu-pairs-ok=(\w+)$", text, re.M)
first = text.split("\n").index(exp.group(0)) if exp else 99
labels = [i for i, l in enumerate(text.split("\n")) if l.startswith("p2pdiag.")]
print("expiry in %d h" % round((calendar.timegm(time.strptime(exp.group(1), "%Y-%m-%dT%H:%M:%SZ")) - now) / 3600) if exp else "no expiry",
      "before every label" if labels and first < min(labels) else "not first",
      "checked now" if at and abs(int(at.group(1)) - now) < 120 else "no checked-at",
      "gpu-pairs-ok=" + (ok.group(1) if ok else "none"))' "$file" 2>&1)
	[ "$v" = "expiry in 3 h before every label checked now gpu-pairs-ok=false" ] &&
		result 1 "kubernetes: $m: the labels expire (NFD's # +expiry-time, 3 intervals), say when (checked-at), and gpu-pairs-ok=false on a broken tree" ||
		result 0 "kubernetes: $m: the labels expire (NFD's # +expiry-time, 3 intervals), say when (checked-at), and gpu-pairs-ok=false on a broken tree" "$v"
	rm -f "$file"
done
summary
