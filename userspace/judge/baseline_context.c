// SPDX-License-Identifier: GPL-2.0
/*
 * The baseline's context against this run's: the kernel, the command
 * line, the firmware, the driver and the slots, compared as the JSON
 * report writes them (report/system_json.c, which the caller hands over
 * for this run), so that both runs are read the same way.
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "judge/baseline_compare.h"

/* @path ("system.kernel.release") in @o, as a string, or NULL. */
static const char *str_at(struct json_object *o, const char *a, const char *b,
			  const char *c)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, a, &v) || !json_object_object_get_ex(v, b, &v) ||
	    (c && !json_object_object_get_ex(v, c, &v)) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

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

/*
 * Slots as "name=addr name=addr", the same way for both runs.  A saved
 * file's "slots" that is no array gives none (json-c asserts on the
 * length of anything else).
 */
static void slots_text(struct json_object *slots, char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	if (!json_object_is_type(slots, json_type_array))
		return;
	for (i = 0; i < json_object_array_length(slots) && used < len; i++) {
		struct json_object *s = json_object_array_get_idx(slots, i), *n, *a;

		if (json_object_object_get_ex(s, "name", &n) &&
		    json_object_object_get_ex(s, "addr", &a))
			used += (size_t)snprintf(buf + used, len - used, "%s%s=%s",
						 used ? " " : "", json_object_get_string(n),
						 json_object_get_string(a));
	}
}

void baseline_context_check(struct check_run *r, struct json_object *base,
			    struct json_object *now)
{
	struct json_object *bs = NULL, *ns = NULL, *v;
	char diff[2048] = "", was[1024], is[1024];
	static const char *const ctx_keys[] = {
		"bios_vendor", "bios_version", "bios_date", "board", "nvidia_driver",
	};
	unsigned int i;

	if (!now || !json_object_object_get_ex(base, "system", &v) ||
	    !json_object_is_type(v, json_type_object))
		return;		/* no context in one of the two runs: nothing to compare */
	differ(diff, sizeof(diff), "kernel", str_at(base, "system", "kernel", "release"),
	       str_at(now, "system", "kernel", "release"));
	differ(diff, sizeof(diff), "command line", str_at(base, "system", "kernel", "cmdline"),
	       str_at(now, "system", "kernel", "cmdline"));
	for (i = 0; i < sizeof(ctx_keys) / sizeof(ctx_keys[0]); i++)
		differ(diff, sizeof(diff), ctx_keys[i],
		       str_at(base, "system", "context", ctx_keys[i]),
		       str_at(now, "system", "context", ctx_keys[i]));
	if (json_object_object_get_ex(v, "context", &v))
		json_object_object_get_ex(v, "slots", &bs);
	if (json_object_object_get_ex(now, "system", &v) &&
	    json_object_object_get_ex(v, "context", &v))
		json_object_object_get_ex(v, "slots", &ns);
	slots_text(bs, was, sizeof(was));
	slots_text(ns, is, sizeof(is));
	differ(diff, sizeof(diff), "slots", was, is);
	if (diff[0])
		findings_add(&r->judged.findings, SEV_INFO, FC_BASELINE_CONTEXT,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, NULL,
			     "since the baseline: %s", diff);
}
