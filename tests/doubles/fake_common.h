/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two test doubles (fake libcuda.so.1 and libnvidia-ml.so.1) must
 * agree on: how many GPUs there are and their PCI bus ids.
 *
 *   FAKE_GPUS=N            number of GPUs (default 2; 0 = none)
 *   FAKE_GPU_BUSIDS=a,b    their bus ids (default 0000:1N:00.0 for GPU N)
 */
#ifndef P2PDIAG_FAKE_COMMON_H
#define P2PDIAG_FAKE_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_MAX_GPUS 16

static inline int fake_env_int(const char *name, int dflt)
{
	const char *v = getenv(name);

	return v && *v ? atoi(v) : dflt;
}

static inline double fake_env_double(const char *name, double dflt)
{
	const char *v = getenv(name);

	return v && *v ? atof(v) : dflt;
}

static inline int fake_gpu_count(void)
{
	int n = fake_env_int("FAKE_GPUS", 2);

	return n < 0 ? 0 : n > FAKE_MAX_GPUS ? FAKE_MAX_GPUS : n;
}

/* Bus id of GPU i, "dddd:bb:dd.f", into buf (>= 16 bytes). */
static inline void fake_gpu_busid(int i, char *buf, size_t len)
{
	const char *list = getenv("FAKE_GPU_BUSIDS");
	int k = 0;

	snprintf(buf, len, "0000:%02x:00.0", 0x10 + i);
	while (list && *list) {
		const char *end = strchr(list, ',');
		size_t n = end ? (size_t)(end - list) : strlen(list);

		if (k++ == i) {
			snprintf(buf, len, "%.*s", (int)n, list);
			return;
		}
		list += n + (end ? 1 : 0);
	}
}

/* Is @name one of the comma list @v (NULL: none)? */
static inline int fake_listed_in(const char *v, const char *name)
{
	size_t n = strlen(name);

	while (v && *v) {
		if (!strncmp(v, name, n) && (v[n] == ',' || !v[n]))
			return 1;
		v = strchr(v, ',');
		if (v)
			v++;
	}
	return 0;
}

/* Is @name one of the comma list in env var @env? */
static inline int fake_listed(const char *env, const char *name)
{
	return fake_listed_in(getenv(env), name);
}

/* Does "a-b" appear in the comma list in env var name? */
static inline int fake_pair_listed(const char *name, int a, int b)
{
	const char *list = getenv(name);
	char want[16];
	size_t n;

	if (!list)
		return 0;
	snprintf(want, sizeof(want), "%d-%d", a, b);
	n = strlen(want);
	while (*list) {
		if (!strncmp(list, want, n) && (list[n] == ',' || !list[n] ||
						list[n] == ':'))
			return 1;
		list = strchr(list, ',');
		if (!list)
			break;
		list++;
	}
	return 0;
}

#endif /* P2PDIAG_FAKE_COMMON_H */
