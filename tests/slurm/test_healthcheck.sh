#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# userspace/slurm/p2pdiag-healthcheck against a real Slurm: munged,
# slurmctld and slurmd (Debian's packages) started here on 127.0.0.1,
# with their configuration, state, spool, logs and munge key in a
# temporary directory, and stopped at the end.  Saved topologies stand for
# the node's PCI tree (--topology-file): a broken one drains the node with
# the worst cause and its fix, a healthy one leaves it idle, a recovered
# one is resumed only when the site allows it and only from p2pdiag's own
# drain, a check that fails is logged and drains only when configured, and
# slurmd itself runs it as HealthCheckProgram.  With the GPU doubles
# (tests/doubles) a driver whose cuInit never returns drains the node
# within the check's deadline, under slurmd too; a signal leaves no
# temporary file and no process behind, and runs never overlap.  Needs
# root (the daemons run as root).  Usage: test_healthcheck.sh [P2PDIAG_CHECK]
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$root/tests/tap.sh"
. "$root/tests/wait_for.sh"
hc=$root/userspace/slurm/p2pdiag-healthcheck
fix=$root/tests/unit/tool/fixtures
healthy=$fix/sriov-switch.topo broken=$fix/switchacs.topo

why=""
[ "$(id -u)" = 0 ] || why="needs root (slurmctld, slurmd and munged run as root)"
for t in slurmctld slurmd munged scontrol sinfo; do
	[ -n "$why" ] || command -v "$t" >/dev/null ||
		why="no $t (apt-get install slurmctld slurmd munge)"
done
# the daemons' network namespace below is set up with ip
[ -n "$why" ] || command -v ip >/dev/null || why="no ip (apt-get install iproute2)"
# slurmd cannot start without a cgroup file system, whatever plugins it
# is given; a chroot or container may have none mounted
[ -n "$why" ] || mountpoint -q /sys/fs/cgroup ||
	why="no cgroup file system on /sys/fs/cgroup (slurmd needs one: mount it in a chroot)"
if [ -n "$why" ]; then
	echo "KTAP version 1"
	echo "ok 1 slurm: the health check against slurmctld and slurmd # SKIP $why"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi

# The daemons get a network namespace of their own: slurmctld binds the
# wildcard address whatever slurm.conf says, and in here nothing outside
# can reach it.  Besides the loopback it holds one veth pair with a
# documentation address (192.0.2.1), both ends inside, since Slurm asks
# getaddrinfo() for addresses of configured families only (AI_ADDRCONFIG),
# and the loopback does not count.
netns_setup='ip link set lo up && ip link add p2pd0 type veth peer name p2pd1 &&
	ip addr add 192.0.2.1/32 dev p2pd0 && ip link set p2pd0 up && ip link set p2pd1 up'
if [ -z "${P2PDIAG_SLURM_NETNS:-}" ]; then
	if unshare --net sh -c "$netns_setup" 2>/dev/null; then
		P2PDIAG_SLURM_NETNS=1 exec unshare --net sh -c "$netns_setup"' && exec "$0" "$@"' "$0" "$@"
	fi
	echo "KTAP version 1"
	echo "ok 1 slurm: the health check against slurmctld and slurmd # SKIP cannot make a network namespace (unshare --net, a veth pair)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
echo "KTAP version 1"
bin=${1:-$root/userspace/p2pdiag-check}
# slurmd runs the health check from a directory of its own
[[ $bin == /* ]] || bin=$PWD/$bin
if [ -z "${1:-}" ] && ! make -s -C "$root/userspace" >/dev/null 2>&1; then
	result 0 "slurm: p2pdiag-check builds" "$(make -s -C "$root/userspace" 2>&1 | tail -5)"
	summary
	exit 1
fi
t=$(mktemp -d /tmp/p2pdiag-slurm-XXXXXX) || exit 1
mkdir -p "$t/tmp"
# The GPU doubles and a tool with CUDA support (tests/doubles/doubles_env.sh);
# without them the hung-driver cases skip, saying why.
. "$root/tests/doubles/doubles_env.sh"
doubles_setup "$root" "$t" "$bin"
hung_why=$doubles_why
pids=()
stop() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do
		for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$p" 2>/dev/null
	done
	rm -rf "$t"
}
trap stop EXIT

free_port() {
	"$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

host=$(hostname -s)
mkdir -p "$t/munge" "$t/state" "$t/spool" && chmod 0700 "$t/munge"
dd if=/dev/urandom of="$t/munge/munge.key" bs=1024 count=1 status=none
chmod 0400 "$t/munge/munge.key"
sock=$t/munge/munge.socket
munged --force --key-file="$t/munge/munge.key" --socket="$sock" \
	--pid-file="$t/munge/munged.pid" --log-file="$t/munge/munged.log" \
	--seed-file="$t/munge/munged.seed" >"$t/munge/start.log" 2>&1
for _ in $(seq 50); do [ -s "$t/munge/munged.pid" ] && break; sleep 0.1; done
[ -s "$t/munge/munged.pid" ] && pids+=("$(cat "$t/munge/munged.pid")")

ctl_port=$(free_port) d_port=$(free_port)
# The health check slurmd runs: idle until a test names its topology.
# With slurmd-hung there, this machine's own tree with a driver whose
# cuInit never returns (the doubles).
cat >"$t/slurmd-healthcheck" <<EOF
#!/bin/sh
export P2PDIAG_CHECK="$bin" P2PDIAG_HEALTHCHECK_CONFIG="$t/site.conf" SLURM_CONF="$t/slurm.conf"
export TMPDIR="$t/tmp"
if [ -r "$t/slurmd-hung" ]; then
	P2PDIAG_CHECK="$cudabin" LD_LIBRARY_PATH="$doubles/cuda:$doubles/nvml" FAKE_GPUS=2 \
		FAKE_CUDA_HANG_CALL=cuInit exec "$hc" >"$t/slurmd-healthcheck.log" 2>&1
fi
[ -r "$t/slurmd-topology" ] || exit 0
env >"$t/slurmd-healthcheck.env"
exec "$hc" --topology-file "\$(cat "$t/slurmd-topology")" >"$t/slurmd-healthcheck.log" 2>&1
EOF
chmod 0755 "$t/slurmd-healthcheck"
cat >"$t/slurm.conf" <<EOF
ClusterName=p2pdiag
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctl_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$t/state
SlurmdSpoolDir=$t/spool
SlurmctldPidFile=$t/slurmctld.pid
SlurmdPidFile=$t/slurmd.pid
SlurmctldLogFile=$t/slurmctld.log
SlurmdLogFile=$t/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/linear
ReturnToService=2
SlurmdTimeout=10
HealthCheckProgram=$t/slurmd-healthcheck
HealthCheckInterval=2
HealthCheckNodeState=ANY
NodeName=$host NodeAddr=127.0.0.1 CPUs=1 RealMemory=100 State=UNKNOWN
PartitionName=p2pdiag Nodes=$host Default=YES State=UP
EOF
export SLURM_CONF=$t/slurm.conf
slurmctld -i -f "$t/slurm.conf" >"$t/slurmctld.out" 2>&1 &&
	for _ in $(seq 50); do [ -s "$t/slurmctld.pid" ] && break; sleep 0.1; done
[ -s "$t/slurmctld.pid" ] && pids+=("$(cat "$t/slurmctld.pid")")
slurmd -f "$t/slurm.conf" >"$t/slurmd.out" 2>&1 &&
	for _ in $(seq 50); do [ -s "$t/slurmd.pid" ] && break; sleep 0.1; done
[ -s "$t/slurmd.pid" ] && pids+=("$(cat "$t/slurmd.pid")")

node_state() { sinfo -h -n "$host" -o %T 2>/dev/null; }
node_reason() { scontrol show node "$host" | sed -n 's/^ *Reason=\(.*\) \[[^]]*\] *$/\1/p'; }
is_idle() { [ "$(node_state)" = idle ]; }
# A resumed node shows "idle*" until slurmd answers slurmctld's next ping.
resumed() { wait_for 30 is_idle; }
is_drained() { case $(node_state) in drain*) return 0 ;; *) return 1 ;; esac; }

if ! wait_for 60 is_idle; then
	result 0 "slurm: munged, slurmctld and slurmd start and the node is idle" \
		"state '$(node_state)'; $(tail -n 5 "$t/munge/munged.log" "$t/slurmctld.log" "$t/slurmd.log" 2>&1)"
	summary
	exit 1
fi
links=$(ip -o link show | awk -F': ' '{print $2}' | tr '\n' ' ')
listening=$(ss -Htln | awk '{print $4}' | sort -u | tr '\n' ' ')
{ [ "$links" = "lo p2pd1@p2pd0 p2pd0@p2pd1 " ] || [ "$links" = "lo p2pd0@p2pd1 p2pd1@p2pd0 " ]; } &&
	[[ $listening == *":$ctl_port "* ]] && [[ $listening == *":$d_port "* ]] &&
	result 1 "slurm: the daemons run in a network namespace of their own (loopback, one veth pair), the node is idle" ||
	result 0 "slurm: the daemons run in a network namespace of their own (loopback, one veth pair), the node is idle" \
		"links: $links; listening: $listening"

# site KEY=VALUE...: the site's configuration for the next runs (the lock
# in the test's directory).
site() { printf '%s\n' "P2PDIAG_HEALTHCHECK_LOCK=$t/lock" "$@" >"$t/site.conf"; }
# health TOPOLOGY [ARGS...]: one run as slurmd would run it; sets rc, err.
health() {
	local topo=$1
	shift
	out=$(SLURMD_NODENAME=$host P2PDIAG_CHECK=$bin P2PDIAG_HEALTHCHECK_CONFIG=$t/site.conf \
		TMPDIR=$t/tmp "$hc" "$@" --topology-file "$topo" 2>"$t/err")
	rc=$?
	err=$(cat "$t/err")
}
set_idle() {
	scontrol update nodename="$host" state=resume >/dev/null 2>&1
	wait_for 20 is_idle
}

site
health "$healthy"
is_idle && [ "$rc" = 0 ] && result 1 "slurm: a healthy tree leaves the node idle (exit 0)" ||
	result 0 "slurm: a healthy tree leaves the node idle (exit 0)" "exit $rc, $(node_state): $err"

health "$broken"
reason=$(node_reason)
want="p2pdiag: host-bridge-no-p2p (2 pairs: 0000:01:00.0-0000:04:00.0, 0000:01:00.0-0000:06:00.0), +1 more (acs-redirect): no ACS setting helps this pair: its path crosses a host bridge"
is_drained && [ "$rc" = 1 ] && [[ $reason == "$want"* ]] && [ "${#reason}" -le 256 ] &&
	result 1 "slurm: a broken tree drains the node with the worst cause, its pairs, the other causes and the fix, at most 256 bytes" ||
	result 0 "slurm: a broken tree drains the node with the worst cause, its pairs, the other causes and the fix, at most 256 bytes" \
		"exit $rc, $(node_state), reason '$reason' (${#reason} bytes): $err"
[[ $reason == *... ]] && [[ $err == *"drained $host: p2pdiag: host-bridge-no-p2p"* ]] &&
	result 1 "slurm: ... the long fix cut and marked, the drain logged" ||
	result 0 "slurm: ... the long fix cut and marked, the drain logged" "reason '$reason'; $err"

health "$healthy"
is_drained && [ "$rc" = 0 ] &&
	result 1 "slurm: recovered, the node stays drained when the site does not allow resuming" ||
	result 0 "slurm: recovered, the node stays drained when the site does not allow resuming" "exit $rc, $(node_state): $err"

site P2PDIAG_HEALTHCHECK_RESUME=yes
health "$healthy"
resumed && [[ $err == *"resumed $host"* ]] &&
	result 1 "slurm: recovered, the node p2pdiag drained is resumed when the site allows it" ||
	result 0 "slurm: recovered, the node p2pdiag drained is resumed when the site allows it" "exit $rc, $(node_state): $err"

scontrol update nodename="$host" state=drain reason="memory errors on DIMM A3"
health "$healthy"
r1=$(node_reason)
health "$broken"
r2=$(node_reason)
is_drained && [ "$r1" = "memory errors on DIMM A3" ] && [ "$r2" = "$r1" ] &&
	result 1 "slurm: a node drained for another reason is neither resumed nor given p2pdiag's reason" ||
	result 0 "slurm: a node drained for another reason is neither resumed nor given p2pdiag's reason" \
		"$(node_state), reasons '$r1', '$r2': $err"
set_idle

# an engine fixture without its expectations is a topology file
grep -v '^expect' "$root/tests/unit/fixtures/03-amd-root-ports-acs.topo" >"$t/degraded.topo"
health "$t/degraded.topo"
is_idle && [ "$rc" = 0 ] && [[ $err == *"degraded: acs-redirect (10 pairs: "*", +8 more), +1 more (iommu-translated): boot with pci=disable_acs_redir="* ]] &&
	result 1 "slurm: warnings only are logged, the node stays idle" ||
	result 0 "slurm: warnings only are logged, the node stays idle" "exit $rc, $(node_state): $err"

# a warning the site chose to drain on drains the node, naming it
site 'P2PDIAG_HEALTHCHECK_DRAIN_ON="link-degraded iommu-translated"'
health "$t/degraded.topo"
reason=$(node_reason)
is_drained && [ "$rc" = 1 ] &&
	[[ $reason == "p2pdiag: iommu-translated (P2PDIAG_HEALTHCHECK_DRAIN_ON) in acs-redirect (10 pairs: "* ]] &&
	result 1 "slurm: a warning of a code in P2PDIAG_HEALTHCHECK_DRAIN_ON drains the node, naming the code" ||
	result 0 "slurm: a warning of a code in P2PDIAG_HEALTHCHECK_DRAIN_ON drains the node, naming the code" \
		"exit $rc, $(node_state), reason '$reason': $err"
site
set_idle

health "$t/absent.topo"
is_idle && [ "$rc" = 0 ] && [[ $err == *"p2pdiag-check failed (exit status 3): "*absent.topo* ]] &&
	result 1 "slurm: the check failing (exit 3) is logged with its message, the node left as it is by default" ||
	result 0 "slurm: the check failing (exit 3) is logged with its message, the node left as it is by default" \
		"exit $rc, $(node_state): $err"

site P2PDIAG_HEALTHCHECK_ON_ERROR=drain P2PDIAG_HEALTHCHECK_RESUME=yes
health "$t/absent.topo"
reason=$(node_reason)
is_drained && [ "$rc" = 1 ] && [[ $reason == "p2pdiag: check failed (exit status 3): "*absent.topo* ]] &&
	result 1 "slurm: with ON_ERROR=drain the check failing drains the node, saying why" ||
	result 0 "slurm: with ON_ERROR=drain the check failing drains the node, saying why" \
		"exit $rc, $(node_state), reason '$reason': $err"
health "$healthy"
resumed && result 1 "slurm: ... and the node is resumed once the check runs and it is healthy" ||
	result 0 "slurm: ... and the node is resumed once the check runs and it is healthy" "$(node_state): $err"

site
resumed
health "$broken" --no-drain
is_idle && [ "$rc" = 1 ] && [[ $out == "p2pdiag: host-bridge-no-p2p (2 pairs: "* ]] &&
	result 1 "slurm: --no-drain (NHC) prints the reason, exits 1 and leaves Slurm alone" ||
	result 0 "slurm: --no-drain (NHC) prints the reason, exits 1 and leaves Slurm alone" \
		"exit $rc, $(node_state), '$out': $err"

site P2PDIAG_HEALTHCHECK_REASON_MAX=64
health "$broken"
reason=$(node_reason)
is_drained && [ "${#reason}" -le 64 ] && [[ $reason == "p2pdiag: host-bridge-no-p2p"*... ]] &&
	result 1 "slurm: the reason is cut to P2PDIAG_HEALTHCHECK_REASON_MAX bytes" ||
	result 0 "slurm: the reason is cut to P2PDIAG_HEALTHCHECK_REASON_MAX bytes" "'$reason' (${#reason} bytes)"
set_idle

# slurmd runs it itself, every HealthCheckInterval (2 s).
site
echo "$broken" >"$t/slurmd-topology"
if wait_for 30 is_drained; then
	reason=$(node_reason)
	[[ $reason == "p2pdiag: host-bridge-no-p2p (2 pairs: "* ]] &&
		result 1 "slurm: slurmd runs it as HealthCheckProgram and the broken node drains" ||
		result 0 "slurm: slurmd runs it as HealthCheckProgram and the broken node drains" "reason '$reason'"
else
	result 0 "slurm: slurmd runs it as HealthCheckProgram and the broken node drains" \
		"$(node_state); $(cat "$t/slurmd-healthcheck.log" 2>&1); $(tail -n 5 "$t/slurmd.log")"
fi
site P2PDIAG_HEALTHCHECK_RESUME=yes
echo "$healthy" >"$t/slurmd-topology"
wait_for 30 is_idle &&
	result 1 "slurm: ... and, the site allowing it, slurmd's next run resumes it when healthy" ||
	result 0 "slurm: ... and, the site allowing it, slurmd's next run resumes it when healthy" \
		"$(node_state); $(cat "$t/slurmd-healthcheck.log" 2>&1)"
rm -f "$t/slurmd-topology"

# A wedged driver, as slurmd runs the check: cuInit never returns, the
# check's deadline (4 s here) ends it, and the node drains saying so,
# within that deadline and slurmd's next interval, leaving nothing behind.
leftovers() { ls -A "$t/tmp"; }
skip_result() {
	n=$((n + 1)) passed=$((passed + 1))
	echo "ok $n $1 # SKIP $2"
}
if [ -n "$hung_why" ]; then
	skip_result "slurm: a hung driver (cuInit never returns) drains the node within the deadline, under slurmd" "$hung_why"
	skip_result "slurm: ... a signal (TERM, INT, HUP) ends the check at once, leaving no file or process" "$hung_why"
else
	site P2PDIAG_HEALTHCHECK_DEADLINE=4
	set_idle
	start=$SECONDS
	touch "$t/slurmd-hung"
	wait_for 20 is_drained
	took=$((SECONDS - start))
	reason=$(node_reason)
	rm -f "$t/slurmd-hung"
	echo "# hung driver under slurmd: drained $took s after the trigger (deadline 4 s, HealthCheckInterval 2 s)"
	wait_for 10 sh -c "! pgrep -f 'slurmd-healthcheck|p2pdiag-healthcheck' >/dev/null"
	is_drained && [ "$took" -le $((4 + 2 + 6)) ] &&
		[[ $reason == "p2pdiag: check-timed-out: cuInit did not return before the run's deadline"* ]] &&
		[ -z "$(leftovers)" ] &&
		result 1 "slurm: a hung driver (cuInit never returns) drains the node within the deadline, under slurmd" ||
		result 0 "slurm: a hung driver (cuInit never returns) drains the node within the deadline, under slurmd" \
			"$(node_state) after $took s, reason '$reason', left: $(leftovers); $(cat "$t/slurmd-healthcheck.log" 2>&1); $(tail -n 5 "$t/slurmd.log")"

	# each signal to a run whose check hangs (deadline 60 s): it ends at
	# once, its status says which signal, its files and processes go
	site P2PDIAG_HEALTHCHECK_DEADLINE=60
	why=""
	for sig in TERM:143 INT:130 HUP:129; do
		tag="p2pdiag-slurm-$sig-$$"
		# job control: a background job of a script has SIGINT ignored;
		# and the signals start at their defaults, as slurmd starts the
		# check, even where this test itself runs with them ignored
		# (under nohup, or in a background job): a shell cannot trap a
		# signal ignored on entry
		set -m
		LD_LIBRARY_PATH="$doubles/cuda:$doubles/nvml" FAKE_GPUS=2 FAKE_CUDA_HANG_CALL=cuInit \
			P2PDIAG_TEST_RUN=$tag SLURMD_NODENAME=$host P2PDIAG_CHECK=$cudabin \
			P2PDIAG_HEALTHCHECK_CONFIG=$t/site.conf TMPDIR=$t/tmp \
			env --default-signal=HUP,INT,TERM "$hc" 2>/dev/null &
		pid=$!
		set +m
		wait_for 10 sh -c "grep -lsz '^P2PDIAG_TEST_RUN=$tag\$' /proc/[0-9]*/environ | grep -qv '/proc/$pid/'" ||
			why=${why:-"$sig: the check did not start"}
		sleep 0.5
		kill -s "${sig%:*}" "$pid"
		t0=$SECONDS
		wait "$pid"
		rc=$?
		gone() { ! grep -lsz "^P2PDIAG_TEST_RUN=$tag\$" /proc/[0-9]*/environ >/dev/null; }
		wait_for 5 gone || why=${why:-"$sig: processes of the run left: $(grep -lsz "^P2PDIAG_TEST_RUN=$tag\$" /proc/[0-9]*/environ)"}
		[ "$rc" = "${sig#*:}" ] || why=${why:-"$sig: exit status $rc, want ${sig#*:}"}
		[ $((SECONDS - t0)) -le 5 ] || why=${why:-"$sig: took $((SECONDS - t0)) s to end"}
		[ -z "$(leftovers)" ] || why=${why:-"$sig: left in \$TMPDIR: $(leftovers)"}
	done
	[ -z "$why" ] && result 1 "slurm: ... a signal (TERM, INT, HUP) ends the check at once, leaving no file or process" ||
		result 0 "slurm: ... a signal (TERM, INT, HUP) ends the check at once, leaving no file or process" "$why"
fi

# A run killed outright (SIGKILL) leaves its directory: the next run, which
# holds the lock, removes it.  A run that finds the lock held leaves the
# node alone; one held past any run's bound drains it.
site
set_idle
mkdir "$t/tmp/p2pdiag-healthcheck.killed"
health "$healthy"
is_idle && [ "$rc" = 0 ] && [ -z "$(leftovers)" ] &&
	result 1 "slurm: a killed run's leftovers are removed by the next run" ||
	result 0 "slurm: a killed run's leftovers are removed by the next run" "exit $rc, $(node_state), left: $(leftovers): $err"
flock "$t/lock" sleep 30 &
holder=$!
wait_for 5 sh -c "! flock -n '$t/lock' true"
date +%s >"$t/lock"
health "$broken"
is_idle && [ "$rc" = 0 ] && [[ $err == *"an earlier check still runs"* ]] &&
	result 1 "slurm: runs do not overlap: one that finds the lock held leaves the node alone" ||
	result 0 "slurm: runs do not overlap: one that finds the lock held leaves the node alone" "exit $rc, $(node_state): $err"
echo $(($(date +%s) - 1000)) >"$t/lock"
health "$healthy"
reason=$(node_reason)
is_drained && [ "$rc" = 1 ] && [[ $reason == "p2pdiag: check timed out: an earlier run has not ended after "* ]] &&
	result 1 "slurm: ... and a lock held past any run's bound drains the node, saying so" ||
	result 0 "slurm: ... and a lock held past any run's bound drains the node, saying so" "exit $rc, $(node_state), '$reason': $err"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
summary
