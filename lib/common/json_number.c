/* Integers as the formats write them: JSON numbers and C-style strings. */
#include "json.h"

#include <stddef.h>
#include <stdint.h>

int
dcfg_parse_json_number(const char *s, size_t len, uint64_t *value,
    const char **why)
{
	uint64_t v = 0;
	size_t i;

	if (len > 0 && s[0] == '-') {
		*why = "negative values are not allowed";
		return -1;
	}
	/* Up to 19 digits always fit: no overflow test per digit. */
	if (len > 0 && len <= 19) {
		for (i = 0; i < len; i++) {
			unsigned d = (unsigned char)s[i] - '0';
			if (d > 9)
				break;
			v = v * 10 + d;
		}
		if (i == len) {
			*value = v;
			return 0;
		}
		v = 0;   /* not a plain integer: the loop below says why */
	}
	for (i = 0; i < len; i++) {
		unsigned d = (unsigned char)s[i] - '0';
		if (d > 9) {
			*why = "not an integer (fractions and exponents are not allowed)";
			return -1;
		}
		if (v > (UINT64_MAX - d) / 10) {
			*why = "integer does not fit in 64 bits";
			return -1;
		}
		v = v * 10 + d;
	}
	if (len == 0) {
		*why = "empty number";
		return -1;
	}
	*value = v;
	return 0;
}

int
dcfg_parse_c_integer(const char *s, size_t len, uint64_t *value,
    const char **why)
{
	unsigned base = 10;
	uint64_t v = 0;
	size_t i = 0;

	if (len > 0 && s[0] == '-') {
		*why = "negative values are not allowed";
		return -1;
	}
	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
		if (len == 2) {
			*why = "not an integer (decimal, 0x-hex or 0-octal)";
			return -1;
		}
	} else if (len >= 2 && s[0] == '0') {
		base = 8;
		i = 1;
	}
	if (len == 0) {
		*why = "not an integer (decimal, 0x-hex or 0-octal)";
		return -1;
	}
	/* Up to 16 hex, 19 decimal or 21 octal digits always fit: no overflow test per digit. */
	if (len - i <= (base == 16 ? 16 : base == 10 ? 19 : 21)) {
		size_t k;
		for (k = i; k < len; k++) {
			unsigned c = (unsigned char)s[k], d;
			if (c - '0' < 10)
				d = c - '0';
			else if ((c | 0x20) - 'a' < 6)
				d = (c | 0x20) - 'a' + 10;
			else
				break;
			if (d >= base)
				break;
			v = v * base + d;
		}
		if (k == len) {
			*value = v;
			return 0;
		}
		v = 0;   /* not an integer: the loop below says why */
	}
	for (; i < len; i++) {
		unsigned c = (unsigned char)s[i], d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			d = 99;
		if (d >= base) {
			*why = "not an integer (decimal, 0x-hex or 0-octal)";
			return -1;
		}
		if (v > (UINT64_MAX - d) / base) {
			*why = "integer does not fit in 64 bits";
			return -1;
		}
		v = v * base + d;
	}
	*value = v;
	return 0;
}
