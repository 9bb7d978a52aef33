/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel header, as kernel_shim.h stands in for it. */
#include "../../kernel_shim.h"
