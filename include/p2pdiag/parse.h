/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading back what the engine writes (format.h): the PCI address and
 * root-bus spellings of the sysfs ABI and the topology file.  The module
 * reads its own directory names with these, the tool its files, so both
 * accept exactly the one spelling p2pd_put_addr() produces.
 */
#ifndef P2PDIAG_PARSE_H
#define P2PDIAG_PARSE_H

#include "p2pdiag/model.h"

/**
 * p2pd_hex_digit() - the value of one hex digit.
 * @c: the character
 *
 * Return: 0 to 15, or -1 for any other character.
 */
int p2pd_hex_digit(char c);

/**
 * p2pd_parse_hex() - exactly @digits hex digits.
 * @s: the text; it is not read past the first character that is no digit
 * @digits: how many (at most 8)
 * @out: their value, set only on success
 *
 * Return: 0, or -1 when one of the first @digits characters is no hex digit.
 */
int p2pd_parse_hex(const char *s, unsigned int digits, unsigned int *out);

/**
 * p2pd_parse_addr() - "dddd:bb:dd.f" exactly as p2pd_put_addr() writes it.
 * @s: NUL-terminated text, the whole address
 * @addr: P2PD_ADDR() of it, set only on success
 *
 * The domain is four hex digits, or five to eight without a leading zero
 * (Intel VMD numbers its domains from 10000), so that no two spellings
 * name one function; bus and device two digits (device 00 to 1f),
 * function 0 to 7.
 *
 * Return: 0, or -1 when @s is anything else.
 */
int p2pd_parse_addr(const char *s, unsigned long long *addr);

/**
 * p2pd_parse_host_bridge() - "dddd:bb", a root bus as p2pd_put_host_bridge()
 * writes it.
 * @s: NUL-terminated text
 * @host_bridge: P2PD_HOST_BRIDGE() of it, set only on success
 *
 * Return: 0, or -1 when @s is anything else.
 */
int p2pd_parse_host_bridge(const char *s, unsigned long long *host_bridge);

#endif /* P2PDIAG_PARSE_H */
