/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the harnesses whose reader takes a file name: the input held in one
 * memory file (memfd) and named by /proc/self/fd/N, so that no input
 * touches the disk and the reader's own open()/read() path is the one
 * fuzzed.
 */
#ifndef P2PD_FUZZ_FILE_H
#define P2PD_FUZZ_FILE_H

#include <stddef.h>
#include <stdint.h>

/* The input as a file; its name.  Aborts when the memfd cannot be had. */
const char *fuzz_file(const uint8_t *data, size_t size);

#endif /* P2PD_FUZZ_FILE_H */
