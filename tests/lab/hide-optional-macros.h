/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Forced in front of a second build of p2pdiag.ko (build-modules): every
 * kernel macro that kmod/compat.h tests by name rather than by version is
 * hidden here, so that compat.h's fallback for it is compiled on every lab
 * kernel, including those whose headers have the macro.  A kernel that
 * lacks it (5.10.218, say) then builds as this build does.
 */
#include <linux/pci.h>
#undef PCI_POSSIBLE_ERROR
