/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two kinds of line in a topology file: the header, and one line per
 * function.  Private to the parser.
 */
#ifndef P2PDIAG_PARSE_LINES_H
#define P2PDIAG_PARSE_LINES_H

#include "topology/parse_reader.h"
#include "topology/topology_parse.h"

/*
 * parse_header() - read the first line @line into @hdr and *cpu_flags
 * (0 when it has no cpu=).  Return: 0, or -1 with the error written.
 */
int parse_header(struct parser *p, char *line, struct topo_header *hdr,
		 unsigned int *cpu_flags);

/*
 * parse_function_line() - read one function line and append it to the
 * parser's functions.  Return: 0, or -1 with the error written.
 */
int parse_function_line(struct parser *p, char *line);

#endif /* P2PDIAG_PARSE_LINES_H */
