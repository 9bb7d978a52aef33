// SPDX-License-Identifier: GPL-2.0
/*
 * Control characters and bytes outside UTF-8, shown instead of sent
 * (safe_text.h).
 */
#include <string.h>

#include "platform/safe_text.h"

size_t utf8_sequence(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (!n)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	/* the second byte's range rules out overlong forms, surrogates, > U+10FFFF */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

/*
 * How many bytes at @s go out as they are (0: the byte at @s is shown as
 * \xHH): printable ASCII, tab, newline, and UTF-8 sequences but C1
 * controls (U+0080-U+009F, which some terminals obey as escapes).
 */
static size_t plain_run(const unsigned char *s, size_t n)
{
	size_t k;

	if (s[0] == '\t' || s[0] == '\n' || (s[0] >= 0x20 && s[0] < 0x7f))
		return 1;
	k = utf8_sequence(s, n);
	if (k < 2 || (k == 2 && s[0] == 0xc2 && s[1] < 0xa0))
		return 0;
	return k;
}

bool text_needs_escape(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), at = 0, k;

	while (at < n) {
		k = plain_run(p + at, n - at);
		if (!k)
			return true;
		at += k;
	}
	return false;
}

/* @s's next piece as it is shown, into @piece (at most 5 bytes); its length. */
static size_t next_piece(const unsigned char *s, size_t n, size_t *used,
			 char piece[5])
{
	static const char hex[] = "0123456789abcdef";
	size_t k = plain_run(s, n);

	if (k) {
		memcpy(piece, s, k);
		*used = k;
		return k;
	}
	piece[0] = '\\';
	piece[1] = 'x';
	piece[2] = hex[s[0] >> 4];
	piece[3] = hex[s[0] & 0xf];
	*used = 1;
	return 4;
}

char *safe_text(char *out, size_t len, const char *in)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t n = strlen(in), at = 0, w = 0;

	if (!len)
		return out;
	while (at < n) {
		char piece[5];
		size_t used, k = next_piece(s + at, n - at, &used, piece);

		if (w + k >= len)
			break;
		memcpy(out + w, piece, k);
		w += k;
		at += used;
	}
	out[w] = '\0';
	return out;
}

void safe_fputs(const char *s, FILE *f)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), at = 0;

	while (at < n) {
		char piece[5];
		size_t used, k = next_piece(p + at, n - at, &used, piece);

		fwrite(piece, 1, k, f);
		at += used;
	}
}
