// SPDX-License-Identifier: GPL-2.0
/* The names of the severities (finding_severity.h). */
#include "findings/finding_severity.h"

const char *finding_severity_name(enum finding_severity s)
{
	switch (s) {
	case SEV_INFO:
		return "info";
	case SEV_WARNING:
		return "warning";
	case SEV_ERROR:
		return "error";
	}
	return "unknown";
}
