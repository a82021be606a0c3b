/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Range-checked command-line numbers and the duration format (cli.h). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

/* A number outside what opt accepts; hint ("" for none) says how to write one. */
static int out_of_range(const char *opt, const char *s, const char *range, const char *hint,
			char *errbuf)
{
	if (errbuf) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: '%s' is out of range %s%s%s%s", opt, s,
			 range, *hint ? " (" : "", hint, *hint ? ")" : "");
	}
	return -DGR_E_INVAL;
}

/*
 * A value of the wrong kind, what: "a number" (a word) or "a whole number" (a
 * count written with a fraction, "1.5"); then what would be accepted.
 */
static int not_kind(const char *opt, const char *s, const char *what, const char *range,
		    const char *hint, char *errbuf)
{
	if (errbuf) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: '%s' is not %s (accepted: %s%s%s)", opt, s,
			 what, range, *hint ? "; " : "", hint);
	}
	return -DGR_E_INVAL;
}

/* A value that is no number at all. */
static int not_a_number(const char *opt, const char *s, const char *range, const char *hint,
			char *errbuf)
{
	return not_kind(opt, s, "a number", range, hint, errbuf);
}

/* "-5" is a number below the range; "-x", "", " 5" and "+5" are not numbers. */
static bool negative_number(const char *s)
{
	return s[0] == '-' && isdigit((unsigned char)s[1]);
}

/* Returns 0 with *out set, or -DGR_E_INVAL with errbuf naming opt and the range. */
int dgr_parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, bool sizes,
		  uint64_t *out, char *errbuf)
{
	char range[96];
	char *end = NULL;
	unsigned long long v;
	uint64_t mult = 1;
	const char *hint = sizes ? "suffixes K, M, G allowed" : "";

	snprintf(range, sizeof(range), "%" PRIu64 "..%" PRIu64, min, max);
	if (!s) {
		return not_a_number(opt, "", range, hint, errbuf);
	}
	if (negative_number(s)) {
		return out_of_range(opt, s, range, hint, errbuf);
	}
	if (!isdigit((unsigned char)s[0])) {
		return not_a_number(opt, s, range, hint, errbuf);
	}
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno != 0) {
		return out_of_range(opt, s, range, hint, errbuf); /* ERANGE: above 2^64 */
	}
	if (*end == '.' && isdigit((unsigned char)end[1])) {
		return not_kind(opt, s, "a whole number", range, hint, errbuf);
	}
	if (sizes && *end) {
		switch (*end) {
		case 'k':
		case 'K':
			mult = 1024;
			break;
		case 'm':
		case 'M':
			mult = 1024 * 1024;
			break;
		case 'g':
		case 'G':
			mult = 1024ull * 1024 * 1024;
			break;
		default:
			return not_a_number(opt, s, range, hint, errbuf);
		}
		end++;
	}
	if (*end) {
		return not_a_number(opt, s, range, hint, errbuf);
	}
	if (v > UINT64_MAX / mult) {
		return out_of_range(opt, s, range, hint, errbuf);
	}
	v *= mult;
	if (v < min || v > max) {
		return out_of_range(opt, s, range, hint, errbuf);
	}
	*out = v;
	return 0;
}

/* Returns 0 with *out set, or -DGR_E_INVAL with errbuf naming opt and the range. */
int dgr_parse_i64(const char *opt, const char *s, int64_t min, int64_t max, int64_t *out,
		  char *errbuf)
{
	char range[96];
	char *end = NULL;
	long long v;

	snprintf(range, sizeof(range), "%" PRId64 "..%" PRId64, min, max);
	if (!s || !(isdigit((unsigned char)s[0]) || negative_number(s))) {
		return not_a_number(opt, s ? s : "", range, "", errbuf);
	}
	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end) {
		return not_a_number(opt, s, range, "", errbuf);
	}
	if (errno != 0 || v < min || v > max) {
		return out_of_range(opt, s, range, "", errbuf);
	}
	*out = v;
	return 0;
}

/*
 * strtod without hex floats, infinities or NaN, which no option means:
 * returns 0 with *v and *end set, or -1 when s does not start with a number.
 */
static int parse_decimal(const char *s, double *v, char **end)
{
	const char *p = s[0] == '-' ? s + 1 : s;

	if (!isdigit((unsigned char)p[0]) && !(p[0] == '.' && isdigit((unsigned char)p[1]))) {
		return -1;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		return -1;
	}
	errno = 0;
	*v = strtod(s, end);
	return 0;
}

/*
 * The decimal value s for opt in [min, max], with the k, M, G multipliers of
 * rates when rate_suffix; range and hint ("" for none) go into the messages.
 * Returns 0 with *out set, or -DGR_E_INVAL.
 */
static int parse_real(const char *opt, const char *s, double min, double max, bool rate_suffix,
		      const char *range, const char *hint, double *out, char *errbuf)
{
	char *end = NULL;
	double v;
	double mult = 1.0;

	if (!s || parse_decimal(s, &v, &end) < 0) {
		return not_a_number(opt, s ? s : "", range, hint, errbuf);
	}
	if (rate_suffix) {
		switch (*end) {
		case 'k':
		case 'K':
			mult = 1e3;
			end++;
			break;
		case 'M':
			mult = 1e6;
			end++;
			break;
		case 'G':
			mult = 1e9;
			end++;
			break;
		default:
			break;
		}
	}
	if (*end) {
		return not_a_number(opt, s, range, hint, errbuf);
	}
	v *= mult;
	if (errno != 0 || !isfinite(v) || v < min || v > max) {
		return out_of_range(opt, s, range, hint, errbuf);
	}
	*out = v;
	return 0;
}

/* Returns 0 with *ns set, or -DGR_E_INVAL with errbuf naming opt and the range. */
int dgr_parse_seconds(const char *opt, const char *s, double max_s, uint64_t *ns, char *errbuf)
{
	char range[96];
	double v;

	snprintf(range, sizeof(range), "0..%.15g seconds", max_s);
	if (parse_real(opt, s, 0, max_s, false, range, "", &v, errbuf) < 0) {
		return -DGR_E_INVAL;
	}
	*ns = (uint64_t)(v * 1e9 + 0.5);
	return 0;
}

/*
 * A bound as the options take it: plainly below plain_below ("500", "60000",
 * "0.5"), else with a decimal exponent ("1e10", "2.5e8", "-1e18").
 */
static void format_bound(char *buf, size_t len, double v, double plain_below)
{
	const char *sign = v < 0 ? "-" : "";
	double a = v < 0 ? -v : v;
	int exp10 = 0;

	if (a < plain_below) {
		snprintf(buf, len, "%.15g", v);
		return;
	}
	while (a >= 10.0) { /* no libm for one log10 */
		a /= 10.0;
		exp10++;
	}
	snprintf(buf, len, "%s%ge%d", sign, a, exp10);
}

/* See cli.h. */
int dgr_parse_f64(const char *opt, const char *s, double min, double max, double *out, char *errbuf)
{
	char range[96], lo[32], hi[32];

	format_bound(lo, sizeof(lo), min, 1e7);
	format_bound(hi, sizeof(hi), max, 1e7);
	snprintf(range, sizeof(range), "%s..%s", lo, hi);
	return parse_real(opt, s, min, max, false, range, "", out, errbuf);
}

/* Returns 0 with *out set, or -DGR_E_INVAL with errbuf naming opt and the range. */
int dgr_parse_rate(const char *opt, const char *s, double min, double max, double *out,
		   char *errbuf)
{
	char range[96], lo[24], hi[24];

	format_bound(lo, sizeof(lo), min, 1e5);
	format_bound(hi, sizeof(hi), max, 1e5);
	snprintf(range, sizeof(range), "%s..%s samples/s", lo, hi);
	return parse_real(opt, s, min, max, true, range, "e.g. 200e6 or 200M", out, errbuf);
}

/* See cli.h. */
void dgr_format_duration(char *buf, size_t size, double ns)
{
	double a = ns < 0 ? -ns : ns;

	if (a < 1e3) {
		snprintf(buf, size, "%.0f ns", ns);
	} else if (a < 1e6) {
		snprintf(buf, size, "%.3f us", ns / 1e3);
	} else if (a < 1e9) {
		snprintf(buf, size, "%.3f ms", ns / 1e6);
	} else {
		snprintf(buf, size, "%.3f s", ns / 1e9);
	}
}
