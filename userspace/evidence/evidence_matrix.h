/* SPDX-License-Identifier: GPL-2.0 */
/* The GPU x GPU tables of p2pBandwidthLatencyTest and nvbandwidth. */
#ifndef P2PDIAG_EVIDENCE_MATRIX_H
#define P2PDIAG_EVIDENCE_MATRIX_H

#include "evidence/evidence.h"

/*
 * ev_matrix_read() - the table whose title is line @i (0-based) of @f,
 * file @fi of the set, into @m (cleared when a header is found, and
 * then m->have; else only m->have is cleared).  Return: the index of the first line after it.
 */
unsigned int ev_matrix_read(const struct ev_file *f, unsigned int i,
			    struct ev_matrix *m, unsigned int fi);

#endif /* P2PDIAG_EVIDENCE_MATRIX_H */
