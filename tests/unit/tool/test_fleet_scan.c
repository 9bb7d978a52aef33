// SPDX-License-Identifier: GPL-2.0
/*
 * fleet/json_scan.c: every well-formed document is walked to its end and
 * the strings and numbers the fleet comparison takes come out decoded;
 * every malformed one is refused with the reason, never read past its
 * end.  fleet/intern.c: equal bytes get one id, different bytes another.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_util.h"
#include "fleet/intern.h"
#include "fleet/json_scan.h"

void test_fleet_scan(struct ktap *k);

/* Walk @text whole.  Return: NULL when it is well-formed, else why not. */
static const char *walk(const char *text)
{
	struct json_scan s;
	size_t len = strlen(text);
	char *copy = malloc(len + 1);
	const char *why;

	/* no NUL after the document: the scanner must keep to its length */
	memcpy(copy, text, len);
	json_scan_begin(&s, copy, len);
	if (!json_scan_skip(&s))
		json_scan_end(&s);
	why = s.error;
	free(copy);
	return why;
}

static void test_well_formed(struct ktap *k)
{
	static const char *const good[] = {
		"{}", "[]", " { \"a\" : [ 1 , -2.5e+3 , 0 , 0.0 , 1E9 ] } ", "\"x\"",
		"null", "true", "false", "12", "-0", "[[[]]]",
		"{\"k\": \"\\u00e9\\ud83d\\ude00\\n\\t\\/\\\\\\\"\"}",
		"{\"a\": {\"b\": {\"c\": null}}, \"d\": [{}, {\"e\": false}]}",
	};
	unsigned int i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		const char *why = walk(good[i]);

		CHECK(k, !why, "fleet scan: well-formed %s is walked whole%s%s", good[i],
		      why ? ": " : "", why ? why : "");
	}
}

static void test_malformed(struct ktap *k)
{
	static const struct { const char *text, *why; } bad[] = {
		{ "", "it ends inside the document" },
		{ "{", "it ends inside the document" },
		{ "{\"a\": [1, 2", "it ends inside the document" },
		{ "{\"a\": \"unterminated", "it ends inside the document" },
		{ "{\"a\": tru", "it ends inside the document" },
		{ "[1,]", "a comma before the closing bracket" },
		{ "{\"a\": 1,}", "a comma before the closing bracket" },
		{ "[1 2]", "a missing comma" },
		{ "{\"a\" 1}", "a missing colon" },
		{ "{1: 2}", "an object key that is no string" },
		{ "[01]", "a missing comma" },
		{ "[1.]", "a malformed number" },
		{ "[-]", "a malformed number" },
		{ "[1e]", "a malformed number" },
		{ "[nul]", "an unexpected character" },
		{ "[\"\\x\"]", "an unknown escape in a string" },
		{ "[\"\\u12g4\"]", "a \\u escape without four hex digits" },
		{ "[\"a\nb\"]", "a control character inside a string" },
		{ "{} {}", "more after the document" },
		{ "[] x", "more after the document" },
		{ "[+1]", "an unexpected character" },
	};
	char deep[2 * JSON_SCAN_DEPTH + 8];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *why = walk(bad[i].text);

		CHECK(k, why && !strcmp(why, bad[i].why),
		      "fleet scan: '%s' is refused: %s (said: %s)", bad[i].text,
		      bad[i].why, why ? why : "accepted");
	}
	memset(deep, '[', JSON_SCAN_DEPTH + 1);
	memset(deep + JSON_SCAN_DEPTH + 1, ']', JSON_SCAN_DEPTH + 1);
	deep[2 * JSON_SCAN_DEPTH + 2] = '\0';
	CHECK(k, walk(deep) && !strcmp(walk(deep), "nested deeper than any report"),
	      "fleet scan: nesting past %d levels is refused, not recursed into",
	      JSON_SCAN_DEPTH);
	deep[JSON_SCAN_DEPTH] = ']';
	deep[2 * JSON_SCAN_DEPTH] = '\0';
	CHECK(k, !walk(deep), "fleet scan: %d levels are read", JSON_SCAN_DEPTH);
}

static void test_values(struct ktap *k)
{
	const char *text = "{\"name\": \"caf\\u00e9 \\ud83d\\ude00\", \"n\": -1.5e2,"
			   " \"skip\": {\"x\": [1, {\"y\": null}]}, \"s\": 7,"
			   " \"long\": \"0123456789\", \"last\": \"end\"}";
	char key[16], name[32] = "", s[8] = "", lng[8] = "", last[8] = "";
	struct json_scan js;
	double n = 0, sn = 0;
	int r, s_rc = -2, long_rc = -2;

	json_scan_begin(&js, text, strlen(text));
	CHECK(k, json_scan_object(&js) == 1, "fleet scan: an object opens");
	while ((r = json_scan_member(&js, key, sizeof(key))) > 0) {
		if (!strcmp(key, "name"))
			json_scan_string(&js, name, sizeof(name));
		else if (!strcmp(key, "n"))
			json_scan_number(&js, &n);
		else if (!strcmp(key, "s"))
			s_rc = json_scan_string(&js, s, sizeof(s));
		else if (!strcmp(key, "long"))
			long_rc = json_scan_string(&js, lng, sizeof(lng));
		else if (!strcmp(key, "last"))
			json_scan_string(&js, last, sizeof(last));
		else
			json_scan_skip(&js);
		if (long_rc == -1)
			break;
	}
	CHECK(k, !strcmp(name, "caf\xc3\xa9 \xf0\x9f\x98\x80"),
	      "fleet scan: escapes are decoded to UTF-8, a surrogate pair whole (%s)", name);
	CHECK(k, n == -150.0, "fleet scan: a number is read (%g)", n);
	CHECK(k, s_rc == 0 && !s[0], "fleet scan: a number where a string is wanted is skipped, not taken");
	CHECK(k, long_rc == -1 && js.error &&
	      !strcmp(js.error, "a string longer than any value a report holds"),
	      "fleet scan: a string longer than its buffer is refused (%s)",
	      js.error ? js.error : "taken");
	CHECK(k, json_scan_member(&js, key, sizeof(key)) == -1 && !last[0],
	      "fleet scan: after an error every call fails");
	{
		const char *t = "{\"a_key_longer_than_its_buffer\": [1], \"b\": \"x\"}";
		char b[4] = "";
		int empty_keys = 0;

		json_scan_begin(&js, t, strlen(t));
		json_scan_object(&js);
		while (json_scan_member(&js, key, sizeof(key)) > 0) {
			if (!key[0])
				empty_keys++;
			if (!strcmp(key, "b"))
				json_scan_string(&js, b, sizeof(b));
			else
				json_scan_skip(&js);
		}
		CHECK(k, empty_keys == 1 && !strcmp(b, "x") && !json_scan_end(&js),
		      "fleet scan: a key longer than its buffer is no key asked for, and is skipped");
	}
	json_scan_begin(&js, "7", 1);
	CHECK(k, json_scan_number(&js, &sn) == 1 && sn == 7 && !json_scan_end(&js),
	      "fleet scan: a document that is one number ends with it");
}

static void test_intern(struct ktap *k)
{
	struct intern t = { 0 };
	uint32_t a = intern_add(&t, "abc", 4), b = intern_add(&t, "abd", 4);
	uint32_t again = intern_add(&t, "abc", 4), empty = intern_add(&t, NULL, 0);
	unsigned int i;
	bool all = true;
	size_t len = 0;
	char word[16];

	CHECK(k, a && b && a != b && again == a && empty && empty != a,
	      "fleet intern: equal bytes one id, other bytes another (%u %u %u %u)",
	      a, b, again, empty);
	for (i = 0; i < 5000; i++) {
		snprintf(word, sizeof(word), "w%u", i);
		if (intern_add(&t, word, strlen(word)) != intern_add(&t, word, strlen(word)))
			all = false;
	}
	CHECK(k, all && t.nr == 5003 + 1, "fleet intern: 5000 words through the table's growth (%u ids)",
	      t.nr - 1);
	CHECK(k, !memcmp(intern_get(&t, a, &len), "abc", 4) && len == 4 &&
	      !intern_get(&t, 0, NULL),
	      "fleet intern: an id gives its bytes back; 0 is none");
	CHECK(k, intern_find(&t, "w4999", 5) == intern_add(&t, "w4999", 5) &&
	      !intern_find(&t, "w5000", 5) && t.nr == 5003 + 1,
	      "fleet intern: a lookup finds what was added and adds nothing");
	intern_free(&t);
}

void test_fleet_scan(struct ktap *k)
{
	test_well_formed(k);
	test_malformed(k);
	test_values(k);
	test_intern(k);
}
