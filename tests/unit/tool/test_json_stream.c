// SPDX-License-Identifier: GPL-2.0
/*
 * report/json_stream.c: a document streamed member by member is, byte for
 * byte, what json-c prints for the same tree, for every flag combination
 * the tool uses and the others json-c has (empty and nested containers,
 * escaped keys and strings, null members); a failed write or unbalanced
 * containers are reported, never a document that only looks whole.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "tool_util.h"
#include "report/json_stream.h"

void test_json_stream(struct ktap *k);

/* A member with line breaks of its own: nested, empty, escaped. */
static struct json_object *sample_member(int i)
{
	struct json_object *o = json_object_new_object(), *arr;

	json_object_object_add(o, "index", json_object_new_int(i));
	json_object_object_add(o, "name", json_object_new_string("a \"quoted\"\nname/path"));
	json_object_object_add(o, "none", NULL);
	json_object_object_add(o, "empty_array", json_object_new_array());
	json_object_object_add(o, "empty_object", json_object_new_object());
	arr = json_object_new_array();
	json_object_array_add(arr, json_object_new_double(0.125));
	json_object_array_add(arr, json_object_new_array());
	json_object_array_add(arr, json_object_new_boolean(1));
	json_object_object_add(o, "list", arr);
	return o;
}

/*
 * The document both ways: a root object whose "items" holds @n members,
 * an empty streamed array, a streamed array of streamed objects, and
 * plain members around them.
 */
static struct json_object *sample_tree(int n)
{
	struct json_object *root = json_object_new_object(), *arr, *o;
	int i;

	json_object_object_add(root, "schema", json_object_new_int(1));
	arr = json_object_new_array();
	for (i = 0; i < n; i++)
		json_object_array_add(arr, sample_member(i));
	json_object_object_add(root, "items", arr);
	json_object_object_add(root, "nothing", json_object_new_array());
	arr = json_object_new_array();
	for (i = 0; i < 2; i++) {
		o = json_object_new_object();
		json_object_object_add(o, "key \"q\"", json_object_new_string("v"));
		json_object_object_add(o, "inner", json_object_new_array());
		json_object_array_add(arr, o);
	}
	json_object_object_add(root, "nested", arr);
	json_object_object_add(root, "empty_streamed", json_object_new_object());
	json_object_object_add(root, "last", NULL);
	return root;
}

static int sample_stream(FILE *f, int n, int flags)
{
	struct json_stream s;
	int i;

	json_stream_begin(&s, f, flags);
	json_stream_open_object(&s, NULL);
	json_stream_put(&s, "schema", json_object_new_int(1));
	json_stream_open_array(&s, "items");
	for (i = 0; i < n; i++)
		json_stream_put(&s, NULL, sample_member(i));
	json_stream_close(&s);
	json_stream_open_array(&s, "nothing");
	json_stream_close(&s);
	json_stream_open_array(&s, "nested");
	for (i = 0; i < 2; i++) {
		json_stream_open_object(&s, NULL);
		json_stream_put(&s, "key \"q\"", json_object_new_string("v"));
		json_stream_open_array(&s, "inner");
		json_stream_close(&s);
		json_stream_close(&s);
	}
	json_stream_close(&s);
	json_stream_open_object(&s, "empty_streamed");
	json_stream_close(&s);
	json_stream_put(&s, "last", NULL);
	json_stream_close(&s);
	return json_stream_end(&s);
}

static void compare_flags(struct ktap *k, int flags, const char *name)
{
	static const int counts[] = { 0, 1, 3 };
	unsigned int c;

	for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		struct json_object *tree = sample_tree(counts[c]);
		const char *want = json_object_to_json_string_ext(tree, flags);
		char *got = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&got, &len);
		int rc = f ? sample_stream(f, counts[c], flags) : -1;

		if (f)
			fclose(f);
		ktap_result(k, !rc && got && want && !strcmp(got, want),
			    got ? got : "no output",
			    "json_stream: %s, %d members: the bytes json-c prints for the tree",
			    name, counts[c]);
		free(got);
		json_object_put(tree);
	}
}

void test_json_stream(struct ktap *k)
{
	struct json_stream s;
	FILE *f;
	int rc, saved;

	compare_flags(k, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		      JSON_C_TO_STRING_NOSLASHESCAPE, "pretty, spaced (--json)");
	compare_flags(k, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE,
		      "pretty (baseline)");
	compare_flags(k, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_PRETTY_TAB,
		      "pretty with tabs");
	compare_flags(k, JSON_C_TO_STRING_SPACED, "spaced");
	compare_flags(k, JSON_C_TO_STRING_PLAIN, "plain");

	/* a full disk: the write's error comes back, and nothing more is tried */
	f = fopen("/dev/full", "w");
	if (f) {
		rc = sample_stream(f, 2000, JSON_C_TO_STRING_PRETTY);
		saved = errno;
		fclose(f);
		ktap_result(k, rc == -1 && saved == ENOSPC, strerror(saved),
			    "json_stream: a write to a full disk is -1 with ENOSPC");
	} else {
		ktap_result(k, 0, strerror(errno),
			    "json_stream: a write to a full disk is -1 with ENOSPC");
	}

	f = tmpfile();
	if (!f) {
		ktap_result(k, 0, "tmpfile", "json_stream: unbalanced containers are EINVAL");
		return;
	}
	json_stream_begin(&s, f, JSON_C_TO_STRING_PLAIN);
	json_stream_open_object(&s, NULL);
	json_stream_open_array(&s, "open");
	json_stream_close(&s);
	rc = json_stream_end(&s);
	saved = errno;
	ktap_result(k, rc == -1 && saved == EINVAL, strerror(saved),
		    "json_stream: a container left open is EINVAL, not a document");
	json_stream_begin(&s, f, JSON_C_TO_STRING_PLAIN);
	json_stream_open_array(&s, NULL);
	json_stream_close(&s);
	json_stream_close(&s);
	rc = json_stream_end(&s);
	saved = errno;
	ktap_result(k, rc == -1 && saved == EINVAL, strerror(saved),
		    "json_stream: closing more than was opened is EINVAL");
	fclose(f);
}
