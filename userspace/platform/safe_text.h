/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text from another machine's files (a DMI string, a report's group name,
 * a line of a dump) on its way to a terminal or a JSON document: control
 * characters and escape sequences shown, never sent, so that a file cannot
 * clear the screen or fake a report line; bytes that are not UTF-8 shown
 * as such, never passed on into a document that must be UTF-8.
 */
#ifndef P2PDIAG_SAFE_TEXT_H
#define P2PDIAG_SAFE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * utf8_sequence() - the length of the well-formed UTF-8 sequence that
 * starts @s (of @n bytes): 1 to 4, or 0 when the bytes there are not one
 * (a stray continuation byte, an overlong form, a surrogate, past U+10FFFF,
 * cut short).
 */
size_t utf8_sequence(const unsigned char *s, size_t n);

/* Whether @s holds a byte safe_text() would change. */
bool text_needs_escape(const char *s);

/*
 * safe_text() - @in into @out (@len bytes, always terminated, cut where
 * it does not fit) with each control character (C0 but tab and newline,
 * DEL, C1) and each byte outside UTF-8 as \xHH.  Returns @out.
 */
char *safe_text(char *out, size_t len, const char *in);

/* fputs(@s, @f) with the escapes of safe_text(), however long @s is. */
void safe_fputs(const char *s, FILE *f);

#endif /* P2PDIAG_SAFE_TEXT_H */
