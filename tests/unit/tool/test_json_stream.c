// SPDX-License-Identifier: GPL-2.0
/*
 * report/json_stream.c: a document streamed member by member is, byte for
 * byte, the layout json_stream.h defines, the same as the tree put whole,
 * and json-c reads it back as that tree, for every flag combination the
 * tool uses and the others json-c has (empty and nested containers,
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

/*
 * The layout json_stream.h defines, written out for the sample tree with
 * one member: not what the json-c at hand prints (its pretty printer
 * changed between releases), so the test holds the tool to the same bytes
 * on every release.
 */
static const char want_json[] =
	"{\n"
	"  \"schema\": 1,\n"
	"  \"items\": [\n"
	"    {\n"
	"      \"index\": 0,\n"
	"      \"name\": \"a \\\"quoted\\\"\\nname/path\",\n"
	"      \"none\": null,\n"
	"      \"empty_array\": [],\n"
	"      \"empty_object\": {},\n"
	"      \"list\": [\n"
	"        0.125,\n"
	"        [],\n"
	"        true\n"
	"      ]\n"
	"    }\n"
	"  ],\n"
	"  \"nothing\": [],\n"
	"  \"nested\": [\n"
	"    {\n"
	"      \"key \\\"q\\\"\": \"v\",\n"
	"      \"inner\": []\n"
	"    },\n"
	"    {\n"
	"      \"key \\\"q\\\"\": \"v\",\n"
	"      \"inner\": []\n"
	"    }\n"
	"  ],\n"
	"  \"empty_streamed\": {},\n"
	"  \"last\": null\n"
	"}";

static const char want_baseline[] =
	"{\n"
	"  \"schema\":1,\n"
	"  \"items\":[\n"
	"    {\n"
	"      \"index\":0,\n"
	"      \"name\":\"a \\\"quoted\\\"\\nname/path\",\n"
	"      \"none\":null,\n"
	"      \"empty_array\":[],\n"
	"      \"empty_object\":{},\n"
	"      \"list\":[\n"
	"        0.125,\n"
	"        [],\n"
	"        true\n"
	"      ]\n"
	"    }\n"
	"  ],\n"
	"  \"nothing\":[],\n"
	"  \"nested\":[\n"
	"    {\n"
	"      \"key \\\"q\\\"\":\"v\",\n"
	"      \"inner\":[]\n"
	"    },\n"
	"    {\n"
	"      \"key \\\"q\\\"\":\"v\",\n"
	"      \"inner\":[]\n"
	"    }\n"
	"  ],\n"
	"  \"empty_streamed\":{},\n"
	"  \"last\":null\n"
	"}";

static const char want_tabs[] =
	"{\n"
	"\t\"schema\":1,\n"
	"\t\"items\":[\n"
	"\t\t{\n"
	"\t\t\t\"index\":0,\n"
	"\t\t\t\"name\":\"a \\\"quoted\\\"\\nname\\/path\",\n"
	"\t\t\t\"none\":null,\n"
	"\t\t\t\"empty_array\":[],\n"
	"\t\t\t\"empty_object\":{},\n"
	"\t\t\t\"list\":[\n"
	"\t\t\t\t0.125,\n"
	"\t\t\t\t[],\n"
	"\t\t\t\ttrue\n"
	"\t\t\t]\n"
	"\t\t}\n"
	"\t],\n"
	"\t\"nothing\":[],\n"
	"\t\"nested\":[\n"
	"\t\t{\n"
	"\t\t\t\"key \\\"q\\\"\":\"v\",\n"
	"\t\t\t\"inner\":[]\n"
	"\t\t},\n"
	"\t\t{\n"
	"\t\t\t\"key \\\"q\\\"\":\"v\",\n"
	"\t\t\t\"inner\":[]\n"
	"\t\t}\n"
	"\t],\n"
	"\t\"empty_streamed\":{},\n"
	"\t\"last\":null\n"
	"}";

static const char want_spaced[] =
	"{ \"schema\": 1, \"items\": [ { \"index\": 0, \"name\": \"a \\\"quoted\\\"\\nname\\/path\", \"none\": null, \"empty_array\": [ ], \"empty_object\": { }, \"list\": [ 0.125, [ ], true ] } ], \"nothing\": [ ], \"nested\": [ { \"key \\\"q\\\"\": \"v\", \"inner\": [ ] }, { \"key \\\"q\\\"\": \"v\", \"inner\": [ ] } ], \"empty_streamed\": { }, \"last\": null }";

static const char want_plain[] =
	"{\"schema\":1,\"items\":[{\"index\":0,\"name\":\"a \\\"quoted\\\"\\nname\\/path\",\"none\":null,\"empty_array\":[],\"empty_object\":{},\"list\":[0.125,[],true]}],\"nothing\":[],\"nested\":[{\"key \\\"q\\\"\":\"v\",\"inner\":[]},{\"key \\\"q\\\"\":\"v\",\"inner\":[]}],\"empty_streamed\":{},\"last\":null}";

/* @tree printed as one member, and its stream: both freed by the caller. */
static char *print(struct json_object *tree, int n, int flags)
{
	struct json_stream s;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	if (!f)
		return NULL;
	if (tree) {
		json_stream_begin(&s, f, flags);
		json_stream_put(&s, NULL, json_object_get(tree));
		rc = json_stream_end(&s);
	} else {
		rc = sample_stream(f, n, flags);
	}
	fclose(f);
	if (rc) {
		free(text);
		return NULL;
	}
	return text;
}

static void compare_flags(struct ktap *k, int flags, const char *name,
			  const char *want_one)
{
	static const int counts[] = { 0, 1, 3 };
	unsigned int c;

	for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		struct json_object *tree = sample_tree(counts[c]);
		char *got = print(NULL, counts[c], flags);
		char *whole = print(tree, counts[c], flags);
		struct json_object *back = got ? json_tokener_parse(got) : NULL;

		if (counts[c] == 1)
			ktap_result(k, got && !strcmp(got, want_one),
				    got ? got : "no output",
				    "json_stream: %s: the bytes of the layout defined, whatever json-c's printer does",
				    name);
		ktap_result(k, back && json_object_equal(back, tree),
			    got ? got : "no output",
			    "json_stream: %s, %d members: json-c reads back the same tree",
			    name, counts[c]);
		ktap_result(k, got && whole && !strcmp(got, whole),
			    whole ? whole : "no output",
			    "json_stream: %s, %d members: streamed is the bytes of the tree put whole",
			    name, counts[c]);
		json_object_put(back);
		free(whole);
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
		      JSON_C_TO_STRING_NOSLASHESCAPE, "pretty, spaced (--json)", want_json);
	compare_flags(k, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE,
		      "pretty (baseline)", want_baseline);
	compare_flags(k, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_PRETTY_TAB,
		      "pretty with tabs", want_tabs);
	compare_flags(k, JSON_C_TO_STRING_SPACED, "spaced", want_spaced);
	compare_flags(k, JSON_C_TO_STRING_PLAIN, "plain", want_plain);

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
