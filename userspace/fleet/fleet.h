/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fleet comparison (--compare-fleet): many saved JSON reports (or
 * baselines, the same format), grouped by model, BIOS version and kernel
 * release; each group's majority is its reference, and every server that
 * differs from it is listed by what differs, worst first.
 */
#ifndef P2PDIAG_FLEET_FLEET_H
#define P2PDIAG_FLEET_FLEET_H

#include <stdbool.h>
#include <stdio.h>

/*
 * fleet_compare() - compare the reports in @paths (files, or directories
 * whose regular *.json files are read, in name order) and print the
 * result on @out, as text or (@json) JSON; each input that cannot be read
 * is said on @errout, listed in the result, and the others are compared.
 * @tolerance: the share a figure may fall below its group's median.
 * Return: the exit status: 0 no outlier (or information only), 1 outliers,
 * 2 an outlier whose pair is blocked, 3 an input that could not be read
 * (or none could be), or the result could not be written.
 */
int fleet_compare(char *const *paths, unsigned int nr_paths, double tolerance,
		  bool json, FILE *out, FILE *errout);

#endif /* P2PDIAG_FLEET_FLEET_H */
