/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the harnesses whose input plants a tree of files and links (roots,
 * outputs): a scratch directory of their own, removed when the harness
 * ends, and the input read as lines "OP NAME [TARGET]".
 */
#ifndef P2PD_FUZZ_PLANT_H
#define P2PD_FUZZ_PLANT_H

#include <stddef.h>
#include <stdint.h>

/*
 * fuzz_plant_scratch() - a new directory for harness @what in /dev/shm
 * (or $TMPDIR), its path with no link in it, into @out; removed with all
 * it holds at exit.  Aborts when it cannot be had.
 */
void fuzz_plant_scratch(const char *what, char *out, size_t len);

/* A new regular file @path holding @text; aborts when it cannot be. */
void fuzz_plant_file(const char *path, const char *text);

/* Called for each line: its first character, its name, its target or NULL. */
typedef void (*fuzz_plant_fn)(char op, char *name, char *target, void *arg);

/*
 * fuzz_plant_lines() - @each for every line of the input "O NAME" or
 * "O NAME TARGET" (lines of another shape are passed over).
 */
void fuzz_plant_lines(const uint8_t *data, size_t size, fuzz_plant_fn each,
		      void *arg);

#endif /* P2PD_FUZZ_PLANT_H */
