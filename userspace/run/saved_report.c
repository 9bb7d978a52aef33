// SPDX-License-Identifier: GPL-2.0
/*
 * Lookups in a saved report by type (saved_report.h): a key of another
 * type is as absent as a missing one, so a hand-edited file is never
 * misread.
 */
#include <json-c/json.h>

#include "run/saved_report.h"

const char *report_get_str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

int report_get_num(struct json_object *o, const char *key, double *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_double) ||
	      json_object_is_type(v, json_type_int)))
		return -1;
	*out = json_object_get_double(v);
	return 0;
}

struct json_object *report_get_array(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_array))
		return NULL;
	return v;
}
