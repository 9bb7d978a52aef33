/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Vetting an `lspci -xxxx` dump before libpci's dump reader sees it: that
 * reader trusts the text it is given, so what would make it misbehave is
 * refused here with the file's line number.
 */
#ifndef P2PDIAG_PCI_DUMP_VETTING_H
#define P2PDIAG_PCI_DUMP_VETTING_H

#include <stddef.h>

/*
 * dump_checked_copy() - the dump checked for what libpci's reader
 * trusts, in a memory file that libpci then reads: a pipe is read once,
 * nothing is read past 64 MiB, and the bytes checked are the bytes parsed.  *@nr_fns: the functions it
 * opens, every one at a well-formed address (the domain up to ffffffff).
 * Return: the memory file's descriptor, or -1 with @err.
 */
int dump_checked_copy(const char *dump_file, unsigned int *nr_fns,
		      char *err, size_t errlen);

#endif /* P2PDIAG_PCI_DUMP_VETTING_H */
