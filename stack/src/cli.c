/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Range-checked command-line numbers (dgrdma/cli.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <dgrdma/cli.h>

static int range_error(const char *opt, const char *s, const char *range, char *errbuf)
{
	if (errbuf) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%s: '%s' is %s", opt, s, range);
	}
	return -DGR_E_INVAL;
}

/* Returns 0 with *out set, or -DGR_E_INVAL with errbuf naming opt and the range. */
int dgr_parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, bool sizes,
		  uint64_t *out, char *errbuf)
{
	char range[96];
	char *end = NULL;
	unsigned long long v;
	uint64_t mult = 1;

	snprintf(range, sizeof(range), "out of range %" PRIu64 "..%" PRIu64 "%s", min, max,
		 sizes ? " (suffixes K, M, G allowed)" : "");
	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ') {
		return range_error(opt, s ? s : "", range, errbuf);
	}
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno != 0 || end == s) {
		return range_error(opt, s, range, errbuf);
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
			return range_error(opt, s, range, errbuf);
		}
		end++;
	}
	if (*end) {
		return range_error(opt, s, range, errbuf);
	}
	if (v > UINT64_MAX / mult) {
		return range_error(opt, s, range, errbuf);
	}
	v *= mult;
	if (v < min || v > max) {
		return range_error(opt, s, range, errbuf);
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

	snprintf(range, sizeof(range), "out of range %" PRId64 "..%" PRId64, min, max);
	if (!s || !*s) {
		return range_error(opt, "", range, errbuf);
	}
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end || v < min || v > max) {
		return range_error(opt, s, range, errbuf);
	}
	*out = v;
	return 0;
}

/* Returns 0 with *ns set, or -DGR_E_INVAL with errbuf naming opt and the range. */
int dgr_parse_seconds(const char *opt, const char *s, double max_s, uint64_t *ns, char *errbuf)
{
	char range[96];
	char *end = NULL;
	double v;

	snprintf(range, sizeof(range), "out of range 0..%g seconds", max_s);
	if (!s || !*s) {
		return range_error(opt, "", range, errbuf);
	}
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end || !isfinite(v) || v < 0 || v > max_s) {
		return range_error(opt, s, range, errbuf);
	}
	*ns = (uint64_t)(v * 1e9 + 0.5);
	return 0;
}
