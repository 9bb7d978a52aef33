# SPDX-License-Identifier: GPL-2.0
# Sourced by run-tests.sh and valgrind-cases.sh: how a case's arguments
# name its environment, "ENV... -- ARGS...".
#
# case_env ARGS...: sets case_envs (the NAME=value words for env),
# case_libs (LIBS=DIRS replaces the doubles' folders, $DOUBLES/cuda and
# $DOUBLES/nvml, on LD_LIBRARY_PATH) and case_args (what follows --).
case_env() {
	case_envs=() case_libs="$DOUBLES/cuda:$DOUBLES/nvml"
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		case $1 in
		LIBS=*) case_libs=${1#LIBS=} ;;
		*) case_envs+=("$1") ;;
		esac
		shift
	done
	[ $# -gt 0 ] && shift
	case_args=("$@")
}
