# SPDX-License-Identifier: GPL-2.0
#
# Guest helpers shared by /init and the checks: KTAP lines on the results
# port (never the console), and the independent view of a PCI function
# (config space decoded by decode-config.awk plus what the PCI core itself
# shows in /sys/bus/pci), which the module's values are held against.

RESULTS=${RESULTS:-/dev/ttyS1}
KTAP_COUNT=/run/lab/ktap.count
DECODED=/run/lab/decoded
P2PD=/sys/kernel/p2pdiag
PCI=/sys/bus/pci/devices

ktap_diag() {
	echo "# $*" >> "$RESULTS"
}

# ktap_result "ok"|"not ok" name [directive]
ktap_result() {
	local n
	n=$(( $(cat "$KTAP_COUNT" 2>/dev/null || echo 0) + 1 ))
	echo "$n" > "$KTAP_COUNT"
	echo "$1 $n $2${3:+ # $3}" >> "$RESULTS"
}

ktap_plan() {
	echo "1..$(cat "$KTAP_COUNT" 2>/dev/null || echo 0)" >> "$RESULTS"
}

# check name expected actual: expected may be a shell glob ("enabled stu=*").
check() {
	# shellcheck disable=SC2254 # the expectation is a pattern on purpose
	case "$3" in
	$2)	ktap_result ok "$1" ;;
	*)	ktap_diag "$1: expected '$2', got '$3'"
		ktap_result "not ok" "$1" ;;
	esac
}

have_module() {
	[ -d "$P2PD" ]
}

uptime_cs() {	# centiseconds since boot
	local up
	read -r up _ < /proc/uptime
	echo $(( ${up%.*} * 100 + 1${up#*.} - 100 ))
}

# How many times longer than on a stock kernel this guest may take to
# follow a PCI event: lab.time_scale=N on the kernel command line (the
# debug lane passes its DEBUG_TIMEOUT_SCALE: KASAN, lockdep and the delayed
# kobject releases make each rebuild several times slower), 1 otherwise.
time_scale() {
	local w
	for w in $(cat /proc/cmdline); do
		case $w in lab.time_scale=[1-9]|lab.time_scale=[1-9][0-9])
			echo "${w#*=}"; return ;;
		esac
	done
	echo 1
}

# The lab's limit for p2pdiag to follow a PCI event: 2 s, times time_scale.
FOLLOW_LIMIT_CS=$(( 200 * $(time_scale) ))
FOLLOW_LIMIT_TEXT="$(( FOLLOW_LIMIT_CS / 100 )) s"

# What the PCI core says about where a function hangs, from its sysfs path.
pci_parent() {
	local up
	up=$(readlink -f "$PCI/$1")
	up=${up%/*}
	up=${up##*/}
	case "$up" in
	pci*)	echo none ;;
	*)	echo "$up" ;;
	esac
}

pci_host_bridge() {
	local p
	p=$(readlink -f "$PCI/$1")
	p=${p#/sys/devices/}
	p=${p%%/*}
	echo "${p#pci}"
}

iommu_group() {
	local g
	if [ -e "$PCI/$1/iommu_group" ]; then
		g=$(readlink -f "$PCI/$1/iommu_group")
		echo "${g##*/}"
	else
		echo none
	fi
}

iommu_domain() {
	local group type
	group=$(iommu_group "$1")
	[ "$group" = none ] && { echo none; return; }
	{ read -r type < "/sys/kernel/iommu_groups/$group/type"; } 2>/dev/null
	case "$type" in
	DMA|DMA-FQ)	echo translated ;;
	identity)	echo identity ;;
	blocked)	echo blocked ;;
	*)		echo "unknown" ;;
	esac
}

# The classes the engine counts as P2P endpoints (display, network, NVMe,
# processing accelerators, co-processors), for endpoint-type functions.
p2p_endpoint() {
	local class=$1 role=$2
	case "$role" in
	endpoint|legacy_endpoint|rc_endpoint|pci_device) ;;
	*) echo 0; return ;;
	esac
	case "$class" in
	0x03????|0x02????|0x010802|0x12????|0x0b40??) echo 1 ;;
	*) echo 0 ;;
	esac
}

# The PF of a virtual function ("" for any other function).
pci_physfn() {
	local pf
	[ -e "$PCI/$1/physfn" ] || return 0
	pf=$(readlink "$PCI/$1/physfn")
	echo "${pf##*/}"
}

# decode_function addr: fill $DECODED/<addr> with key=value lines.  A
# virtual function's IDs are the PCI core's (the VF's own registers read
# 0xffff), its ATS STU is the PF's (reserved in a VF), and so are its PRI
# and PASID (one interface with the PF, configured there).
decode_function() {
	local a=$1 f=$DECODED/$1 class role pf vf=0 ats
	mkdir -p "$DECODED"
	pf=$(pci_physfn "$a")
	[ -n "$pf" ] && vf=1
	od -A n -t x1 -v "$PCI/$a/config" |
		awk -v vf=$vf -f /lab/decode-config.awk > "$f"
	if [ -n "$pf" ]; then
		echo "vendor=$(cat "$PCI/$a/vendor")" >> "$f"
		echo "device=$(cat "$PCI/$a/device")" >> "$f"
		ats=$(decoded "$a" ats)
		case "$ats" in
		"enabled stu="*)
			sed -i "s/^ats=.*/ats=enabled stu=$(decoded "$pf" ats | sed 's/.*stu=//')/" "$f" ;;
		esac
		sed -i -e "s/^pri=.*/pri=$(decoded "$pf" pri)/" \
			-e "s/^pasid=.*/pasid=$(decoded "$pf" pasid)/" "$f"
	fi
	class=$(decoded "$a" class)
	role=$(decoded "$a" role)
	{
		echo "parent=$(pci_parent "$a")"
		echo "host_bridge=$(pci_host_bridge "$a")"
		echo "numa_node=$(read -r n < "$PCI/$a/numa_node" && echo "$n" || echo -1)"
		echo "iommu_group=$(iommu_group "$a")"
		echo "iommu_domain=$(iommu_domain "$a")"
		echo "p2p_endpoint=$(p2p_endpoint "$class" "$role")"
	} >> "$f"
}

# decoded addr key: one value of the independent view ("" if not decoded).
# Shell builtins only: every exec costs milliseconds under TCG.
decoded() {
	local key value
	[ -f "$DECODED/$1" ] || decode_function "$1"
	while IFS='=' read -r key value; do
		[ "$key" = "$2" ] && { echo "$value"; return; }
	done < "$DECODED/$1"
}

# module_value addr key: the module's file, or "<missing>".
module_value() {
	local value
	{ IFS= read -r value < "$P2PD/devices/$1/$2"; } 2>/dev/null || value="<missing>"
	echo "$value"
}

# The tool's libpci walk through the same engine must equal the module.
# Exit 0-2 are verdicts about P2P (the trees have blocked pairs on
# purpose); a difference is a "cross-check" finding.
cross_check() {
	local rc
	/lab/bin/p2pdiag-check --cross-check --quick --no-cuda --no-color \
		> /run/lab/check.out 2>&1
	rc=$?
	sed 's/^/# p2pdiag-check: /' /run/lab/check.out >> "$RESULTS"
	if [ $rc -le 2 ] && [ -s /run/lab/check.out ] &&
	   ! grep -q 'cross-check' /run/lab/check.out; then
		ktap_result ok "p2pdiag-check --cross-check"
	else
		ktap_result "not ok" "p2pdiag-check --cross-check" "exit $rc"
	fi
}

# One read of a p2pdiag text in 61-byte blocks (dozens of read() calls),
# judged by its trailer (ABI.txt): "whole" when the trailer's generation
# is the header's and its byte count the trailer's offset, and then the
# lines must be as many as the header says; "spliced" when the trailer
# check fails.  Prints whole, spliced or bad (whole by the trailer, yet
# the wrong number of lines).
judge_read() {	# file count-key line-prefix
	local t=/run/lab/whole.$$ head tail hgen tgen bytes size n want
	dd if="$P2PD/$1" of=$t bs=61 2>/dev/null
	head=$(head -n 1 $t)
	tail=$(tail -n 1 $t)
	hgen=${head#*generation=}
	hgen=${hgen%% *}
	case "$tail" in
	"# p2pdiag end generation="*" bytes="*) ;;
	*) echo spliced; return ;;
	esac
	tgen=${tail#*generation=}
	tgen=${tgen%% *}
	bytes=${tail##*bytes=}
	size=$(( $(wc -c < $t) - ${#tail} - 1 ))
	if [ "$tgen" != "$hgen" ] || [ "$bytes" != "$size" ]; then
		echo spliced
		return
	fi
	want=${head##*$2=}
	want=${want%% *}
	n=$(grep -c "^$3" $t)
	if [ "$n" = "$want" ]; then echo whole; else echo bad; fi
}
