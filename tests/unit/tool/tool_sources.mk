# SPDX-License-Identifier: GPL-2.0
# The tool's sources as the unit tests and the fuzzers build it: every room
# but gpu/, as userspace/Makefile builds them, and the GPU side without
# CUDA (gpu/gpu_none.c), which the tests drive by hand.  Needs US and ROOT.
ROOMS := platform topology findings run judge report system fleet evidence
TOOL_SRCS := $(US)/options.c $(US)/outputs.c $(US)/gpu/gpu_none.c $(US)/gpu/gpu_stats.c \
	$(foreach r,$(ROOMS),$(wildcard $(US)/$(r)/*.c)) \
	$(wildcard $(ROOT)/kmod/engine/*.c)
TOOL_HEADERS := $(wildcard $(US)/*.h) \
	$(foreach r,$(ROOMS) gpu,$(wildcard $(US)/$(r)/*.h)) \
	$(wildcard $(ROOT)/include/p2pdiag/*.h $(ROOT)/include/uapi/p2pdiag/*.h)
