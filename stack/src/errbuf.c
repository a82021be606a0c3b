/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The error message of a failed call, beside its negative DGR_E_* code (dgrdma/wire.h). */
#include <stdarg.h>
#include <stdio.h>

#include <dgrdma/wire.h>

/* See dgrdma/wire.h. */
int dgr_errbuf_set(char *errbuf, int code, const char *fmt, ...)
{
	va_list ap;

	if (errbuf) {
		va_start(ap, fmt);
		vsnprintf(errbuf, DGR_ERRBUF_SIZE, fmt, ap);
		va_end(ap);
	}
	return -code;
}
