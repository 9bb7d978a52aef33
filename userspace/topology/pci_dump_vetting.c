// SPDX-License-Identifier: GPL-2.0
/*
 * Vetting an `lspci -xxxx` dump for what libpci 3.9's dump reader trusts
 * without checking: a config line's offset is used as an index into a
 * 4 KiB buffer, so one outside config space writes out of bounds, and a
 * function's address must parse, its domain of at most five hex digits
 * (DOMAIN_DIGITS_MAX).  Its lines must fit libpci's buffer and end in a
 * newline, and a function given twice must be given the same both times.
 * The file is read once, bounded, into a memory file, so the bytes
 * checked are the bytes libpci parses.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "topology/pci_dump_vetting.h"
#include "platform/bounded_file.h"
#include "topology/pciaddr.h"

/* The largest dump read: `lspci -xxxx` writes about 4.6 KiB a function. */
#define DUMP_MAX		(64UL << 20)
#define CFG_SPACE_SIZE		4096

/*
 * The longest domain a dump is taken with.  libpci 3.9's dump reader
 * (Debian 12) skips a function whose domain has six or more digits without
 * a word, libpci 3.13's (Debian 13) reads it: refused on every release, so
 * one dump gives one answer wherever the tool runs.  The domains Linux
 * gives (ACPI segments up to ffff, VMD's from 10000) fit in five.
 */
#define DOMAIN_DIGITS_MAX	5

/* The digits of @word's domain ("dddd:bb:dd.f"), 0 when it has none. */
static size_t domain_digits(const char *word)
{
	const char *colon = strchr(word, ':');

	return colon && strchr(colon + 1, ':') ? (size_t)(colon - word) : 0;
}

/* Whether @line (of @n bytes) is a config line, "OFFSET: bytes". */
static int config_line(const char *line, size_t n)
{
	size_t i;

	for (i = 0; i < n && isxdigit((unsigned char)line[i]); i++)
		;
	return i && i + 1 < n && line[i] == ':' && line[i + 1] == ' ';
}

/*
 * Whether @line (of @n bytes) is a config line whose offset lies outside
 * config space: "OFFSET: " with more than 3 hex digits or past 4 KiB.
 * libpci 3.9's dump reader takes any hex number there as an index into
 * its buffer, and one past 2^31 writes before it.
 */
static int offset_outside(const char *line, size_t n)
{
	size_t i;

	if (!config_line(line, n))
		return 0;	/* a device line (bb:dd.f), a comment, text */
	for (i = 0; isxdigit((unsigned char)line[i]); i++)
		;
	return i > 3 || strtoul(line, NULL, 16) >= CFG_SPACE_SIZE;
}

/*
 * Whether @line (of @n bytes) opens a function, "bb:dd.f ..." or
 * "dddd:bb:dd.f ...": a hex digit first, and a first word with a ':' and
 * a '.' that is not a config line's "OFFSET:".  The word is in @word, of
 * @wlen bytes.
 */
static int device_line(const char *line, size_t n, char *word, size_t wlen)
{
	size_t w = 0;

	if (!n || !isxdigit((unsigned char)line[0]))
		return 0;
	while (w < n && line[w] != ' ' && line[w] != '\t')
		w++;
	if (line[w - 1] == ':' || !memchr(line, ':', w) || !memchr(line, '.', w))
		return 0;
	snprintf(word, wlen, "%.*s", (int)w, line);
	return 1;
}

/*
 * libpci reads a dump a line at a time into 255 bytes with fgets(): a
 * line of more bytes before its newline, or a last line without one,
 * stops it with "line too long or unterminated".
 */
#define DUMP_LINE_MAX		253

/* One function's block: its device line up to the next one. */
struct dump_block {
	unsigned long long addr;
	size_t start, end;		/* byte offsets into the text */
	size_t line;			/* its device line's number */
	int dropped;			/* a repeat of an identical block */
};

static int block_start_order(const void *x, const void *y)
{
	const struct dump_block *a = x, *b = y;

	return a->start < b->start ? -1 : a->start > b->start;
}

static int block_order(const void *x, const void *y)
{
	const struct dump_block *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

/*
 * The next line of block @b that libpci reads, from *@at: its device line
 * and its config lines, up to the first blank line, where libpci's reader
 * ends the function (a comment or a shell prompt between two pastes is
 * not the function's); without trailing spaces.  Return: 0 at the end.
 */
static int next_read_line(const char *text, const struct dump_block *b,
			  size_t *at, const char **line, size_t *n)
{
	while (*at < b->end) {
		const char *l = text + *at, *nl = memchr(l, '\n', b->end - *at);
		size_t len = nl ? (size_t)(nl - l) : b->end - *at;

		*at += len + 1;
		while (len && isspace((unsigned char)l[len - 1]))
			len--;
		if (!len)
			return 0;
		if (l == text + b->start || config_line(l, len)) {
			*line = l;
			*n = len;
			return 1;
		}
	}
	return 0;
}

/* Whether blocks @x and @y hold the same lines for libpci. */
static int same_block(const char *text, const struct dump_block *x,
		      const struct dump_block *y)
{
	size_t ax = x->start, ay = y->start, nx, ny;
	const char *lx, *ly;

	for (;;) {
		int more_x = next_read_line(text, x, &ax, &lx, &nx);
		int more_y = next_read_line(text, y, &ay, &ly, &ny);

		if (!more_x || !more_y)
			return more_x == more_y;
		if (nx != ny || memcmp(lx, ly, nx))
			return 0;
	}
}

/*
 * The same dump pasted twice has each function twice: a repeat that is
 * byte for byte the same is dropped (libpci would list the function
 * twice); one that differs is two dumps in one file, refused, since
 * which of them is the machine's cannot be told.  @blk is sorted here.
 */
static int merge_repeats(const char *dump_file, const char *text,
			 struct dump_block *blk, size_t nr, char *err, size_t errlen)
{
	size_t i, first = 0;

	if (nr)		/* a dump without functions has no blocks, and no array */
		qsort(blk, nr, sizeof(*blk), block_order);
	for (i = 1; i < nr; i++) {
		char a[P2PD_ADDR_STRLEN];

		if (blk[i].addr != blk[first].addr) {
			first = i;
			continue;
		}
		if (!same_block(text, &blk[first], &blk[i])) {
			snprintf(err, errlen,
				 "%s line %zu: function %s again, and not as at line %zu: two different dumps in one file? Give each machine's dump on its own",
				 dump_file, blk[i].line, pciaddr_format(a, blk[i].addr),
				 blk[first].line);
			return -1;
		}
		blk[i].dropped = 1;
	}
	return 0;
}

/* Check each line of @text; each function's block into *@blk. */
static int vet_lines(const char *dump_file, const char *text, size_t len,
		     struct dump_block **blk, size_t *nr, char *err, size_t errlen)
{
	size_t at, lineno = 1, alloc = 0;
	unsigned long long addr;
	char word[32];

	for (at = 0; at < len; lineno++) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at;

		if (!nl) {
			snprintf(err, errlen,
				 "%s line %zu: the file ends inside this line, without a newline: the dump may be cut off here; if the line is whole, end the file with a newline",
				 dump_file, lineno);
			return -1;
		}
		if (n > DUMP_LINE_MAX) {
			snprintf(err, errlen,
				 "%s line %zu: %zu characters, more than the %d an `lspci -xxxx` line has (and libpci's dump reader takes): not `lspci -xxxx` output, or lines joined",
				 dump_file, lineno, n, DUMP_LINE_MAX);
			return -1;
		}
		if (offset_outside(text + at, n)) {
			snprintf(err, errlen,
				 "%s line %zu: config offset '%.*s' is outside the 4 KiB of config space: not `lspci -xxxx` output",
				 dump_file, lineno, (int)strcspn(text + at, ":"), text + at);
			return -1;
		}
		if (device_line(text + at, n, word, sizeof(word))) {
			if (pciaddr_parse(word, &addr)) {
				snprintf(err, errlen,
					 "%s line %zu: '%s' is not a PCI address (bb:dd.f or dddd:bb:dd.f, the domain at most ffffffff)",
					 dump_file, lineno, word);
				return -1;
			}
			if (domain_digits(word) > DOMAIN_DIGITS_MAX) {
				snprintf(err, errlen,
					 "%s line %zu: '%s' has a domain of more than %d hex digits, which libpci's dump reader drops or reads depending on its version: the dump is not judged",
					 dump_file, lineno, word, DOMAIN_DIGITS_MAX);
				return -1;
			}
			if (*nr == alloc) {
				size_t want = alloc ? 2 * alloc : 64;
				struct dump_block *b = realloc(*blk, want * sizeof(*b));

				if (!b) {
					snprintf(err, errlen, "out of memory for the functions of %s",
						 dump_file);
					return -1;
				}
				*blk = b;
				alloc = want;
			}
			if (*nr)
				(*blk)[*nr - 1].end = at;
			(*blk)[(*nr)++] = (struct dump_block){ addr, at, len, lineno, 0 };
		}
		at += n + 1;
	}
	return 0;
}

/* The text without the dropped blocks into a memory file; its descriptor or -1. */
static int memory_copy(const char *text, size_t len, struct dump_block *blk,
		       size_t nr)
{
	size_t i, at = 0, end;
	int fd = memfd_create("p2pdiag-dump", MFD_CLOEXEC);

	/* back in file order, so the dropped blocks are cut out in turn */
	if (nr)
		qsort(blk, nr, sizeof(*blk), block_start_order);
	for (i = 0; fd >= 0 && i <= nr; i++) {
		end = i < nr ? blk[i].start : len;
		if (i < nr && !blk[i].dropped)
			continue;
		while (fd >= 0 && at < end) {
			ssize_t w = write(fd, text + at, end - at);

			if (w <= 0) {
				close(fd);
				fd = -1;
			} else {
				at += (size_t)w;
			}
		}
		if (i < nr)
			at = blk[i].end;
	}
	return fd;
}

int dump_checked_copy(const char *dump_file, unsigned int *nr_fns,
		      char *err, size_t errlen)
{
	struct dump_block *blk = NULL;
	size_t len, nr = 0, i;
	char *text;
	int fd = -1;

	if (bounded_file_read(dump_file, DUMP_MAX, &text, &len)) {
		snprintf(err, errlen, "cannot read %s: %s", dump_file,
			 errno == EFBIG ? "larger than 64 MiB, which no `lspci -xxxx` output is" :
			 strerror(errno));
		return -1;
	}
	if (!vet_lines(dump_file, text, len, &blk, &nr, err, errlen) &&
	    !merge_repeats(dump_file, text, blk, nr, err, errlen)) {
		for (i = 0; i < nr; i++)
			*nr_fns += !blk[i].dropped;
		fd = memory_copy(text, len, blk, nr);
		if (fd < 0)
			snprintf(err, errlen, "cannot hold %s in memory: %s", dump_file,
				 strerror(errno));
	}
	free(blk);
	free(text);
	return fd;
}
