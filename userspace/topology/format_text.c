// SPDX-License-Identifier: GPL-2.0
/* Whole ABI texts as malloc'd strings (see format_text.h). */
#include <stdlib.h>

#include "topology/format_text.h"

char *format_text(void (*fn)(struct p2pd_buf *, const struct p2pd_model *),
		  const struct p2pd_model *m, size_t *len)
{
	struct p2pd_buf b;
	char *s;

	p2pd_buf_init(&b, NULL, 0);
	fn(&b, m);
	s = malloc(b.len + 1);
	if (!s)
		return NULL;
	p2pd_buf_init(&b, s, b.len + 1);
	fn(&b, m);
	p2pd_buf_terminate(&b);
	*len = b.len;
	return s;
}
