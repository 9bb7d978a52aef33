// SPDX-License-Identifier: GPL-2.0
/*
 * The baseline's context against this run's: the kernel, the command
 * line, the firmware, the driver and the slots, compared as the JSON
 * report writes them (report/system_json.c, which the caller reads back
 * for this run with run/saved_report.h), so that both runs are read the
 * same way.
 */
#include <stdio.h>
#include <string.h>

#include "judge/baseline_compare.h"

static void differ(char *buf, size_t len, const char *what, const char *was,
		   const char *now)
{
	size_t used = strlen(buf);

	if (!strcmp(was ? was : "", now ? now : "") || used + 1 >= len)
		return;
	if (snprintf(buf + used, len - used, "%s%s '%s' -> '%s'", used ? "; " : "",
		     what, was ? was : "unknown", now ? now : "unknown") < 0)
		buf[used] = '\0';
}

void baseline_context_check(struct check_run *r, const struct saved_context *base,
			    const struct saved_context *now)
{
	char diff[2048] = "";
	unsigned int i;

	if (!now->have || !base->have)
		return;		/* no context in one of the two runs: nothing to compare */
	differ(diff, sizeof(diff), "kernel", base->kernel_release, now->kernel_release);
	differ(diff, sizeof(diff), "command line", base->cmdline, now->cmdline);
	for (i = 0; i < SAVED_CONTEXT_KEYS; i++)
		differ(diff, sizeof(diff), saved_context_keys[i], base->context[i],
		       now->context[i]);
	differ(diff, sizeof(diff), "slots", base->slots, now->slots);
	if (diff[0])
		findings_add(&r->judged.findings, SEV_INFO, FC_BASELINE_CONTEXT,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, NULL,
			     "since the baseline: %s", diff);
}
