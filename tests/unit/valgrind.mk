# SPDX-License-Identifier: GPL-2.0
# How the unit tests run under valgrind's memcheck: any memory error or
# definite leak is exit 99 (valgrind.supp lists the third-party ones).
# valgrind by its full path: some tests narrow PATH.
VALGRIND ?= $(shell command -v valgrind)
VALGRIND_FLAGS := --quiet --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite --show-leak-kinds=definite \
	--suppressions=$(dir $(lastword $(MAKEFILE_LIST)))valgrind.supp
