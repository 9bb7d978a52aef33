# SPDX-License-Identifier: GPL-2.0
#
# The lab's stress, read-only and fault-injection checks: one topology line
# "step stress <kind> <count> <full count> [args]" each, sourced by
# check-topo (whose generation, wait_for and hotplug_request it uses).
# <count> runs in make test; <full count> when the kernel command line has
# lab.stress=full (make test-stress, the debug lane).  Each kind reports
# its results, and its figures as "# stress: <kind> ..." diagnostics.
#
#   load N                  N rmmod + insmod cycles of p2pdiag while 4
#                           readers loop over every file
#   pci-rescan N <addr>     N cycles of /sys/bus/pci/devices/<addr>/remove
#                           and /sys/bus/pci/rescan under 4 readers
#   rescan-writers N <w>    <w> writers x N writes of "1" to rescan under 4
#                           readers: all return, slab objects flat (and
#                           a control shows the count sees such a leak)
#   hotplug N <addr> <dev>  N QMP device_add + device_del cycles of <dev>
#                           (driver,id=...,prop=...) under 4 readers
#   hotplug-race N <addr> <dev>  N times: rmmod, then device_add and insmod
#                           together; devices/ equals /sys/bus/pci/devices
#   sriov N <pf> <vfs>      N times <vfs> VFs of <pf> enabled and disabled
#                           under 4 readers (the lab's PF driver bound)
#   config N                every function's config space byte-identical
#                           before load, after load, after N rescans and
#                           after unload
#   failnth N               fail the k-th allocation of p2pdiag's load for
#                           k = 1, 2, ... until one loads (at most N): each
#                           failure unwinds, the next load works
#
# lab.stress_only=<kind>[,<kind>...] on the kernel command line runs only
# those kinds and reports the others as skipped: the debug lane splits one
# topology's full counts over boots side by side that way, since the whole
# of stress at full counts outlasts a working session on that kernel.

STRESS=/run/lab/stress
KO=/lab/modules/p2pdiag.ko
# Report headers of the kernel's checkers and of WARN/BUG; an allocation
# failure's own stack dump (warn_alloc) has none of them.
STRESS_REPORTS='WARNING: |BUG: |Oops|KFENCE: |KASAN|UBSAN: |lockdep|possible circular locking|INFO: (possible|inconsistent|trying to register|task .* blocked)|DEBUG_LOCKS_WARN_ON|ODEBUG: |list_(add|del) corruption|general protection|Kernel panic|refcount_t: |kobject: .*has no release'

# The report lines of a kernel log on stdin (plus the extra pattern), the
# kernel's known false reports and lockdep's boot banner left out
# (known-kernel-reports.awk).  Stack frames are no report lines: an
# allocation failure's stack dump names lockdep_hardirqs_on_prepare() and
# the like; the report it belongs to has a header line of its own.
stress_reports() {	# [|extra pattern]
	awk -f /lab/known-kernel-reports.awk |
		grep -vE '^(\[ *[0-9.]+\] )? +(\? )?[A-Za-z0-9_.]+\+0x[0-9a-f]+/0x[0-9a-f]+( \[[A-Za-z0-9_]+\])?$' |
		grep -E "$STRESS_REPORTS${1:-}"
}

stress_full() {
	case " $(cat /proc/cmdline) " in
	*" lab.stress=full "*) return 0 ;;
	esac
	return 1
}

# Whether lab.stress_only= leaves this kind to run (no such word: all run).
stress_selected() {	# kind
	local w
	for w in $(cat /proc/cmdline); do
		case $w in lab.stress_only=*)
			case ",${w#lab.stress_only=}," in
			*",$1,"*) return 0 ;;
			esac
			return 1 ;;
		esac
	done
	return 0
}

# The parameters p2pdiag runs with now, as insmod words, so that every
# reload is the load the lab made (the topology's parameters, the debug
# lane's crosscheck=1), plus dyndbg=+p where its pr_debug lines were on.
# Read once per step, while the module is loaded.
stress_record_params() {
	local f v
	STRESS_PARAMS=
	for f in /sys/module/p2pdiag/parameters/*; do
		[ -r "$f" ] || continue
		read -r v < "$f" || continue
		[ "$v" = "(null)" ] && continue
		STRESS_PARAMS="$STRESS_PARAMS ${f##*/}=$v"
	done
	grep -q '\[p2pdiag\].* =p' /sys/kernel/debug/dynamic_debug/control 2>/dev/null &&
		STRESS_PARAMS="$STRESS_PARAMS dyndbg=+p"
	STRESS_PARAMS=${STRESS_PARAMS# }
}

stress_load_params() {
	echo "$STRESS_PARAMS"
}

stress_insmod() {
	# shellcheck disable=SC2046 # one word per parameter
	insmod "$KO" $(stress_load_params) 2>> "$STRESS/errors"
}

stress_rmmod() {
	rmmod p2pdiag 2>> "$STRESS/errors"
}

# Readers: each loops over every file of the module, counting its passes.
# The one-line files through the shell's read (an exec costs milliseconds
# under TCG), the root's files whole through cat.
stress_readers_start() {	# n
	local i=0
	: > "$STRESS/readers"
	while [ $i -lt "$1" ]; do
		i=$((i + 1))
		# TERM waits for the cat in hand: a killed reader leaves no
		# child holding a file open while the slab is counted.
		( trap 'exit 0' TERM
		  passes=0
		  while :; do
			for f in "$P2PD"/devices/*/*; do
				{ read -r v < "$f"; } 2>/dev/null
			done
			for f in "$P2PD"/*; do
				cat "$f" > /dev/null 2>&1
			done
			passes=$((passes + 1))
			echo $passes > "$STRESS/reader.$i"
		  done ) &
		echo $! >> "$STRESS/readers"
	done
}

stress_readers_stop() {	# prints the readers' passes, all together
	local pid passes=0 f p
	while read -r pid; do
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done < "$STRESS/readers"
	for f in "$STRESS"/reader.*; do
		[ -e "$f" ] || continue
		read -r p < "$f"
		passes=$((passes + p))
		rm -f "$f"
	done
	echo $passes
}

# devices/ lists exactly the functions /sys/bus/pci/devices does.
stress_tree_matches() {
	[ -d "$P2PD/devices" ] && [ "$(ls "$PCI")" = "$(ls "$P2PD/devices")" ]
}

# After the load or the change: the module published a tree equal to the
# PCI core's (STRESS_FOLLOW_LIMIT for a rebuild to land).
stress_check_tree() {	# name
	if stress_follow stress_tree_matches; then
		ktap_result ok "$1"
	else
		ktap_diag "$1: /sys/bus/pci/devices: $(ls "$PCI" | tr '\n' ' ')"
		ktap_diag "$1: devices/: $(ls "$P2PD/devices" 2>&1 | tr '\n' ' ')"
		ktap_result "not ok" "$1"
	fi
}

# Wait for the module to follow a change; the slowest wait so far is in
# STRESS_FOLLOW_MAX (centiseconds).  Stress asks for survival, not for the
# lab's 2 s: on the debug kernel, with 4 readers on the one vCPU, a
# rebuild can take longer.
STRESS_FOLLOW_LIMIT=1000
stress_follow() {	# condition
	local t0=$(uptime_cs) ok=0 d
	wait_for "$1" $STRESS_FOLLOW_LIMIT || ok=1
	d=$(( $(uptime_cs) - t0 ))
	[ "$d" -gt "${STRESS_FOLLOW_MAX:-0}" ] && STRESS_FOLLOW_MAX=$d
	return $ok
}

secs_since() {	# centiseconds -> "s.cc"
	local d=$(( $(uptime_cs) - $1 ))
	printf '%d.%02d' $((d / 100)) $((d % 100))
}

# Every 25th cycle of a long kind (the full counts), one line on the
# results, so that a boot cut short, or a run still going, shows how far
# it got ("stress progress:", which the summaries' "stress: " leaves out).
stress_progress() {	# kind cycle cycles t0 failures
	[ $(($2 % 25)) = 0 ] && [ "$2" -lt "$3" ] || return 0
	ktap_diag "stress progress: $1 $2 of $3 cycles, failures so far $5, $(secs_since "$4") s"
}

stress_load() {	# cycles
	local n=$1 i=0 bad=0 t0 passes
	stress_readers_start 4
	t0=$(uptime_cs)
	while [ $i -lt "$n" ]; do
		i=$((i + 1))
		stress_rmmod || bad=$((bad + 1))
		[ ! -e "$P2PD" ] || bad=$((bad + 1))
		stress_insmod || bad=$((bad + 1))
		stress_progress load "$i" "$n" "$t0" "$bad"
	done
	passes=$(stress_readers_stop)
	ktap_diag "stress: load cycles=$n failures=$bad reader_passes=$passes in $(secs_since "$t0") s"
	[ -s "$STRESS/errors" ] && ktap_diag "stress: load: $(tail -3 "$STRESS/errors" | tr '\n' ' ')"
	check "load/unload $n cycles under 4 readers" 0 "$bad"
	check "generation 1 after the last load" 1 "$(generation)"
	stress_check_tree "load/unload: devices/ equals /sys/bus/pci/devices"
}

stress_pci_rescan() {	# cycles addr
	local n=$1 addr=$2 i=0 bad=0 t0 passes
	if [ ! -e "$PCI/$addr" ]; then
		ktap_result "not ok" "pci remove+rescan: no function $addr"
		return
	fi
	stress_readers_start 4
	t0=$(uptime_cs)
	while [ $i -lt "$n" ]; do
		i=$((i + 1))
		echo 1 > "$PCI/$addr/remove"
		wait_for "[ ! -e $PCI/$addr ]" 1000 || bad=$((bad + 1))
		echo 1 > /sys/bus/pci/rescan
		wait_for "[ -e $PCI/$addr ]" 1000 || { bad=$((bad + 1)); break; }
		stress_progress "pci-rescan $addr" "$i" "$n" "$t0" "$bad"
	done
	passes=$(stress_readers_stop)
	ktap_diag "stress: pci-rescan $addr cycles=$i failures=$bad reader_passes=$passes in $(secs_since "$t0") s"
	check "pci remove+rescan of $addr: $n cycles under 4 readers" 0 "$bad"
	stress_check_tree "pci remove+rescan: devices/ equals /sys/bus/pci/devices"
}

# Active objects of all caches and of the kmalloc caches (/proc/slabinfo),
# once queued frees have run.  A cache's shrink also empties KASAN's
# quarantine of its objects and its per-CPU slabs, both of which count as
# active; RCU-deferred frees land in their own time, so the count is read
# again until it stops falling.
# A copy of /proc/slabinfo goes to $STRESS/slabinfo.<tag>.
stress_slab() {	# tag
	local s cur prev= tries=0
	echo 3 > /proc/sys/vm/drop_caches
	while :; do
		for s in /sys/kernel/slab/*/shrink; do
			echo 1 2>/dev/null > "$s"
		done
		cat /proc/slabinfo > "$STRESS/slabinfo.$1"
		cur=$(awk 'NR > 2 { all += $2; if ($1 ~ /^kmalloc-/) km += $2 }
			   END { print all + 0, km + 0 }' "$STRESS/slabinfo.$1")
		tries=$((tries + 1))
		[ -n "$prev" ] && [ "${cur#* }" -ge "${prev#* }" ] && break
		[ $tries -ge 10 ] && break
		prev=$cur
		sleep 1
	done
	echo "$cur"
}

# The caches whose active objects grew by more than 64 between two copies.
stress_slab_growth() {	# tag-before tag-after
	awk 'FNR > 2 { if (FILENAME == ARGV[1]) a[$1] = $2
		       else if ($2 - a[$1] > 64) printf "%s %d->%d ", $1, a[$1], $2 }' \
		"$STRESS/slabinfo.$1" "$STRESS/slabinfo.$2"
}

# The control for a "kmalloc objects flat" check: <leak> kmalloc objects
# held (hold-pipes, two a pipe) must raise the count from <before> by at
# least <allowed>, or the check could not have seen such a leak.
stress_slab_control() {	# before leak allowed
	local pid held km ready=$STRESS/hold-pipes.ready
	rm -f "$ready"
	/lab/bin/hold-pipes $(($2 / 2)) "$ready" &
	pid=$!
	if ! wait_for "[ -e $ready ]" $((1000 * $(time_scale))); then
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		ktap_result "not ok" "slab count control: $2 held kmalloc objects seen" "hold-pipes did not start"
		return
	fi
	held=$(stress_slab held)
	km=${held#* }
	kill "$pid"
	wait "$pid"
	rm -f "$ready"
	ktap_diag "stress: slab control: kmalloc $1 -> $km with $2 objects held"
	if [ $((km - $1)) -ge "$3" ]; then
		ktap_result ok "slab count control: $2 held kmalloc objects seen ($1 -> $km)"
	else
		ktap_result "not ok" "slab count control: $2 held kmalloc objects seen ($1 -> $km)"
	fi
}

stress_rescan_writers() {	# writes writers
	local n=$1 w=$2 i=0 bad=0 t0 passes gen0 gen1 done_cond
	local all0 km0 all1 km1 total slab pids=
	total=$((n * w))
	# a first round outside the measurement: caches the rebuild path needs
	echo 1 > "$P2PD/rescan"
	slab=$(stress_slab before)
	all0=${slab% *} km0=${slab#* }
	gen0=$(generation)
	stress_readers_start 4
	t0=$(uptime_cs)
	rm -f "$STRESS"/writer.*
	done_cond=true
	while [ $i -lt "$w" ]; do
		i=$((i + 1))
		( j=0 fail=0
		  while [ $j -lt "$n" ]; do
			j=$((j + 1))
			echo 1 2>/dev/null > "$P2PD/rescan" || fail=$((fail + 1))
		  done
		  echo $fail > "$STRESS/writer.$i" ) &
		pids="$pids $!"
		done_cond="$done_cond && [ -e $STRESS/writer.$i ]"
	done
	# No deadlock: every writer is done within 10 minutes times
	# lab.time_scale (a rebuild under KASAN and lockdep is many times
	# slower); the boot's timeout would end a hung guest without this
	# line's clear name.
	if ! wait_for "$done_cond" $((60000 * $(time_scale))); then
		ktap_diag "stress: rescan writers still running: $(ls "$STRESS" | tr '\n' ' ')"
		ktap_result "not ok" "rescan: $w writers x $n writes return"
		stress_readers_stop > /dev/null
		return
	fi
	for i in $pids; do
		wait "$i"
	done
	for i in "$STRESS"/writer.*; do
		read -r j < "$i"
		bad=$((bad + j))
	done
	passes=$(stress_readers_stop)
	gen1=$(generation)
	slab=$(stress_slab after)
	all1=${slab% *} km1=${slab#* }
	ktap_diag "stress: rescan-writers writers=$w writes=$total failed=$bad generation $gen0 -> $gen1 reader_passes=$passes in $(secs_since "$t0") s"
	ktap_diag "stress: rescan-writers slab active objects: all $all0 -> $all1, kmalloc $km0 -> $km1"
	ktap_diag "stress: rescan-writers caches grown by more than 64: $(stress_slab_growth before after)"
	check "rescan: $w writers x $n writes return, none failed" 0 "$bad"
	# concurrent writes share rebuilds: at least one, at most one each
	if [ $((gen1 - gen0)) -ge 1 ] && [ $((gen1 - gen0)) -le "$total" ]; then
		ktap_result ok "rescan: generation moved by 1..$total"
	else
		ktap_result "not ok" "rescan: generation moved by 1..$total" "$gen0 -> $gen1"
	fi
	# Flat: a leak of one object per write would add $total; allow what a
	# slab's worth of per-CPU caching and the kernel's own churn give.
	if [ $((km1 - km0)) -lt $((total / 8 + 256)) ]; then
		ktap_result ok "rescan: kmalloc objects flat ($km0 -> $km1 after $total writes)"
	else
		ktap_result "not ok" "rescan: kmalloc objects flat ($km0 -> $km1 after $total writes)"
	fi
	stress_slab_control "$km1" "$total" $((total / 8 + 256))
	stress_check_tree "rescan writers: devices/ equals /sys/bus/pci/devices"
}

# The id= of a device_add argument list.
stress_dev_id() {	# driver,id=x,...
	local id=${1#*,id=}
	echo "${id%%,*}"
}

stress_hotplug() {	# cycles addr device
	local n=$1 addr=$2 dev=$3 id i=0 bad=0 t0 passes
	id=$(stress_dev_id "$dev")
	stress_readers_start 4
	t0=$(uptime_cs)
	while [ $i -lt "$n" ]; do
		i=$((i + 1))
		hotplug_request add "$addr" "$dev"
		wait_for "[ -e $PCI/$addr ]" 6000 || { bad=$((bad + 1)); break; }
		stress_follow "[ -e $P2PD/devices/$addr ]" || bad=$((bad + 1))
		hotplug_request del "$addr" "$id"
		wait_for "[ ! -e $PCI/$addr ]" 6000 || { bad=$((bad + 1)); break; }
		stress_follow "[ ! -e $P2PD/devices/$addr ]" || bad=$((bad + 1))
		stress_progress "hotplug $addr" "$i" "$n" "$t0" "$bad"
	done
	passes=$(stress_readers_stop)
	ktap_diag "stress: hotplug $addr cycles=$i failures=$bad reader_passes=$passes" \
		"slowest_follow=$((STRESS_FOLLOW_MAX * 10)) ms in $(secs_since "$t0") s"
	check "hotplug add+del of $addr: $n cycles under 4 readers" 0 "$bad"
	stress_check_tree "hotplug cycles: devices/ equals /sys/bus/pci/devices"
}

stress_hotplug_race() {	# cycles addr device
	local n=$1 addr=$2 dev=$3 id i=0 bad=0 t0
	id=$(stress_dev_id "$dev")
	t0=$(uptime_cs)
	while [ $i -lt "$n" ]; do
		i=$((i + 1))
		stress_rmmod || bad=$((bad + 1))
		# alternate who starts first: the host polls every 0.2 s and
		# the load takes about as long under TCG
		if [ $((i % 2)) = 1 ]; then
			hotplug_request add "$addr" "$dev"
			stress_insmod || bad=$((bad + 1))
		else
			stress_insmod &
			hotplug_request add "$addr" "$dev"
			wait $! || bad=$((bad + 1))
		fi
		wait_for "[ -e $PCI/$addr ]" 6000 || { bad=$((bad + 1)); break; }
		stress_follow stress_tree_matches || {
			ktap_diag "hotplug race $i: devices/ differs from /sys/bus/pci/devices"
			bad=$((bad + 1))
		}
		hotplug_request del "$addr" "$id"
		wait_for "[ ! -e $PCI/$addr ]" 6000 || { bad=$((bad + 1)); break; }
		stress_follow stress_tree_matches || bad=$((bad + 1))
	done
	ktap_diag "stress: hotplug-race $addr cycles=$i failures=$bad in $(secs_since "$t0") s"
	check "hot add racing module load: $n times, tree equals /sys/bus/pci" 0 "$bad"
}

# SR-IOV: the PF bound to the lab's PF driver (check-topo's sriov_bind),
# its VFs enabled and disabled, each time seen by the module.
stress_sriov() {	# cycles pf vfs
	local n=$1 pf=$2 want=$3 i=0 bad=0 t0 passes vfs vf
	if ! sriov_bind "$pf" 2>/dev/null; then
		ktap_result "not ok" "sriov cycles: bind $pf to the lab's PF driver"
		return
	fi
	stress_readers_start 4
	t0=$(uptime_cs)
	while [ $i -lt "$n" ]; do
		i=$((i + 1))
		echo "$want" > "$PCI/$pf/sriov_numvfs" || { bad=$((bad + 1)); break; }
		vfs=$(vf_addrs "$pf")
		[ "$(echo "$vfs" | wc -w)" = "$want" ] || bad=$((bad + 1))
		for vf in $vfs; do
			stress_follow "[ -e $P2PD/devices/$vf ]" || bad=$((bad + 1))
		done
		echo 0 > "$PCI/$pf/sriov_numvfs" || { bad=$((bad + 1)); break; }
		for vf in $vfs; do
			stress_follow "[ ! -e $P2PD/devices/$vf ]" || bad=$((bad + 1))
		done
		stress_progress "sriov $pf" "$i" "$n" "$t0" "$bad"
	done
	passes=$(stress_readers_stop)
	ktap_diag "stress: sriov $pf vfs=$want cycles=$i failures=$bad reader_passes=$passes" \
		"slowest_follow=$((STRESS_FOLLOW_MAX * 10)) ms in $(secs_since "$t0") s"
	check "sriov: $want VFs of $pf enabled and disabled $n times under 4 readers" 0 "$bad"
	stress_check_tree "sriov cycles: devices/ equals /sys/bus/pci/devices"
}

# Every function's 4 KiB config space, as root, into a directory.
stress_config_snap() {	# dir
	local d
	mkdir -p "$1"
	for d in "$PCI"/*; do
		cat "$d/config" > "$1/${d##*/}"
	done
}

# Offsets at which two snapshots differ, for one function ("" if none).
stress_config_diff() {	# dir-a dir-b addr
	cmp -l "$1/$3" "$2/$3" 2>&1 | awk '{ printf "%s0x%03x", n++ ? "," : "", $1 - 1 }'
}

stress_config() {	# rescans
	local n=$1 i=0 d a stage diff volatile bad=0
	stress_rmmod || { ktap_result "not ok" "read-only: rmmod before the proof"; return; }
	# Two snapshots before the load: bytes that move by themselves
	# (status bits of a running device) are named, not blamed on us.
	stress_config_snap "$STRESS/cfg.before"
	stress_config_snap "$STRESS/cfg.control"
	stress_insmod || bad=$((bad + 1))
	stress_config_snap "$STRESS/cfg.loaded"
	while [ $i -lt "$n" ]; do
		i=$((i + 1))
		echo 1 > "$P2PD/rescan" || bad=$((bad + 1))
	done
	stress_config_snap "$STRESS/cfg.rescans"
	stress_rmmod || bad=$((bad + 1))
	stress_config_snap "$STRESS/cfg.unloaded"
	stress_insmod || bad=$((bad + 1))
	for d in "$STRESS"/cfg.before/*; do
		a=${d##*/}
		volatile=$(stress_config_diff "$STRESS/cfg.before" "$STRESS/cfg.control" "$a")
		[ -z "$volatile" ] || ktap_diag "stress: config $a changes by itself at $volatile"
		for stage in loaded rescans unloaded; do
			diff=$(stress_config_diff "$STRESS/cfg.before" "$STRESS/cfg.$stage" "$a")
			[ -n "$diff" ] || continue
			[ "$diff" = "$volatile" ] && continue
			ktap_diag "stress: config $a differs $stage at $diff"
			bad=$((bad + 1))
		done
	done
	ktap_diag "stress: config functions=$(ls "$STRESS/cfg.before" | wc -l) rescans=$n differences=$bad"
	check "read-only: config space identical before load, after load, $n rescans, unload" 0 "$bad"
	rm -rf "$STRESS"/cfg.*
}

# failslab and fail_page_alloc as fail-nth needs them: GFP_KERNEL
# allocations count, nothing fails at random, failures are not printed.
stress_failnth_setup() {
	local a
	for a in failslab fail_page_alloc; do
		a=/sys/kernel/debug/$a
		[ -d "$a" ] || return 1
		echo N > "$a/ignore-gfp-wait" || return 1
		echo 0 > "$a/probability"
		echo 0 > "$a/verbose"
		echo -1 > "$a/times"
	done
	echo N > /sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem
	echo 0 > /sys/kernel/debug/fail_page_alloc/min-order
	# Every slab cache counts but these:
	#  - kmalloc-64: there the loader's dynamic debug table
	#    (ddebug_module_notify(), 48 bytes) is allocated before our init
	#    runs, and the kernel WARNs when that fails, which panic_on_warn
	#    makes a panic and the W taint a failed boot: a rule of the
	#    kernel's, not a path of ours;
	#  - the checkers' own caches (kmemleak_object, kmemleak_scan_area,
	#    debug_objects_cache): every allocation of the load makes one more
	#    of these, and their failure falls back to a reserve pool by
	#    design, so they doubled the loads to try and tested only the
	#    checkers.
	# Merged caches refuse the knob and stay out as well (their count is
	# reported).
	echo Y > /sys/kernel/debug/failslab/cache-filter
	STRESS_FAILSLAB_CACHES=0
	for a in /sys/kernel/slab/*/failslab; do
		case ${a%/failslab} in
		*/kmalloc-64|*/kmemleak_object|*/kmemleak_scan_area|*/debug_objects_cache) continue ;;
		esac
		echo 1 2>/dev/null > "$a" &&
			STRESS_FAILSLAB_CACHES=$((STRESS_FAILSLAB_CACHES + 1))
	done
}

# One attempt of the fault loop: failnth-insmod k, judged.  Sets
# STRESS_FAILNTH_OUT to the helper's line and prints the attempt's
# progress line; returns 0 to go on, 1 when a load reached no k-th point
# (the loop's end), 2 on anything that is not a clean refusal or a whole
# load.
stress_failnth_attempt() {	# k
	local k=$1 rc t0 what ret=0
	t0=$(uptime_cs)
	STRESS_FAILNTH_OUT=$(/lab/bin/failnth-insmod "$k" "$KO" "$(stress_load_params)" 2>&1)
	rc=$?
	case "$rc $STRESS_FAILNTH_OUT" in
	"0 loaded injected=0 "*)
		what="loaded, a load has fewer than $k points: done"
		ret=1 ;;
	"0 loaded injected=1 "*)
		# the failure was absorbed (a fallback, a skipped cross-check,
		# a directory left for the module's own retry a moment later):
		# the module must be whole within STRESS_FOLLOW_LIMIT, and unload
		STRESS_FAULTS=$((STRESS_FAULTS + 1))
		STRESS_TOLERATED=$((STRESS_TOLERATED + 1))
		if stress_follow stress_tree_matches; then
			what="loaded, failure absorbed, tree whole"
		else
			what="loaded, failure absorbed, but devices/ differs from /sys/bus/pci/devices"
			ret=2
		fi
		if stress_rmmod; then
			what="$what, unloaded"
		else
			what="$what, rmmod failed"
			ret=2
		fi ;;
	"1 failed errno="*" injected=1 "*)
		STRESS_FAULTS=$((STRESS_FAULTS + 1))
		STRESS_REFUSED=$((STRESS_REFUSED + 1))
		what=${STRESS_FAILNTH_OUT#failed errno=}
		what="refused ${what%% *}"
		if [ -e "$P2PD" ] || [ -e /sys/module/p2pdiag ]; then
			what="$what, but $P2PD or /sys/module/p2pdiag is left"
			ret=2
		else
			what="$what, unwound"
		fi ;;
	*)
		what="exit $rc: $STRESS_FAILNTH_OUT"
		ret=2 ;;
	esac
	ktap_diag "failnth k=$k: $what ($(secs_since "$t0") s)"
	return $ret
}

# lab.failnth_first=K on the kernel command line: start at k = K (resume a
# run that stopped at K; the debug lane's DEBUG_APPEND sets it).
stress_failnth_first() {
	local w
	for w in $(cat /proc/cmdline); do
		case $w in lab.failnth_first=[1-9]*) echo "${w#*=}"; return ;; esac
	done
	echo 1
}

stress_failnth() {	# max k
	local max=$1 k bad=0 t0 printk points ret
	local name="fault injection: each failed allocation of the load unwinds, the next load works"
	STRESS_FAULTS=0 STRESS_REFUSED=0 STRESS_TOLERATED=0
	if [ ! -e /proc/self/fail-nth ] || ! stress_failnth_setup 2>/dev/null; then
		case $(uname -r) in
		*-p2pdiag-debug) ktap_result "not ok" "$name" "no fail-nth in the debug kernel" ;;
		*) ktap_result ok "$name" "SKIP no fail-nth (CONFIG_FAULT_INJECTION) in $(uname -r)" ;;
		esac
		return
	fi
	# The kernel log so far holds no report: checked here, because the
	# window below is cut out of it.
	if dmesg | stress_reports "|Call Trace:" > "$STRESS/reports"; then
		sed 's/^/# dmesg: /' "$STRESS/reports" | head -20 >> "$RESULTS"
		ktap_result "not ok" "kernel log clean before fault injection"
	else
		ktap_result ok "kernel log clean before fault injection"
	fi
	# An allocation failure dumps its stack (warn_alloc): keep that off
	# the console, whose every "Call Trace:" the host counts as a failure.
	read -r printk < /proc/sys/kernel/printk
	echo 1 > /proc/sys/kernel/printk
	dmesg -c > "$STRESS/dmesg.before-faults"
	stress_rmmod || bad=$((bad + 1))
	# How many points a whole load passes (a k no load reaches): the
	# loop's length, give or take the slab refills that come and go.
	t0=$(uptime_cs)
	points=$(/lab/bin/failnth-insmod 1000000 "$KO" "$(stress_load_params)" 2>&1)
	ktap_diag "stress: failnth: a whole load: $points ($(secs_since "$t0") s)"
	points=${points##*reached=}
	stress_rmmod || bad=$((bad + 1))
	k=$(( $(stress_failnth_first) - 1 ))
	[ "$k" = 0 ] || ktap_diag "stress: failnth: from k=$((k + 1)) (lab.failnth_first)"
	t0=$(uptime_cs)
	while [ $k -lt "$max" ]; do
		k=$((k + 1))
		stress_failnth_attempt $k
		ret=$?
		[ $ret = 0 ] && continue
		[ $ret = 2 ] && bad=$((bad + 1))
		break
	done
	dmesg -c > "$STRESS/dmesg.faults"
	echo "$printk" > /proc/sys/kernel/printk
	ktap_diag "stress: failnth caches=$STRESS_FAILSLAB_CACHES points=$points faults=$STRESS_FAULTS" \
		"refused=$STRESS_REFUSED tolerated=$STRESS_TOLERATED loaded_at=$k" \
		"kernel_log_lines=$(wc -l < "$STRESS/dmesg.faults") in $(secs_since "$t0") s"
	grep -E 'p2pdiag' "$STRESS/dmesg.faults" | sort | uniq -c | sort -rn | head -5 |
		sed 's/^/# stress: failnth log: /' >> "$RESULTS"
	if stress_reports < "$STRESS/dmesg.faults" > "$STRESS/reports"; then
		sed 's/^/# dmesg: /' "$STRESS/reports" | head -40 >> "$RESULTS"
		bad=$((bad + 1))
	fi
	case $STRESS_FAILNTH_OUT in
	"loaded injected=0 "*) ;;
	*)	ktap_diag "fault injection: no clean load within $max faults (last: $STRESS_FAILNTH_OUT)"
		bad=$((bad + 1)) ;;
	esac
	check "$name" 0 "$bad"
	check "generation 1 after the fault-free load" 1 "$(generation)"
	stress_check_tree "after fault injection: devices/ equals /sys/bus/pci/devices"
	# One rebuild in the log that is left: the module still works, and
	# the debug lane's cross-check count (its log lines of the window are
	# gone with it) sees a walk.
	if echo 1 2>/dev/null > "$P2PD/rescan"; then
		ktap_result ok "rescan after fault injection"
	else
		ktap_result "not ok" "rescan after fault injection"
	fi
}

stress_step() {	# kind count full-count args...
	local kind=$1 n=$2
	STRESS_FOLLOW_MAX=0
	stress_full && n=$3
	shift 3
	if ! stress_selected "$kind"; then
		ktap_result ok "stress $kind $*" "SKIP not in lab.stress_only"
		return
	fi
	mkdir -p "$STRESS"
	: > "$STRESS/errors"
	need_module "stress $kind" || return
	stress_record_params
	ktap_diag "stress: $kind, count $n, p2pdiag parameters '$STRESS_PARAMS'"
	case "$kind" in
	load)		stress_load "$n" ;;
	pci-rescan)	stress_pci_rescan "$n" "$1" ;;
	rescan-writers)	stress_rescan_writers "$n" "$1" ;;
	hotplug)	stress_hotplug "$n" "$1" "$2" ;;
	hotplug-race)	stress_hotplug_race "$n" "$1" "$2" ;;
	config)		stress_config "$n" ;;
	sriov)		stress_sriov "$n" "$1" "$2" ;;
	failnth)	stress_failnth "$n" ;;
	*)		ktap_result "not ok" "unknown stress kind: $kind" ;;
	esac
}
