# SPDX-License-Identifier: GPL-2.0
# Sourced by the shell tests that start services: wait for one to answer.

# wait_for SECONDS CMD...: until CMD succeeds, at most SECONDS.
wait_for() {
	local end=$((SECONDS + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.5
	done
}
