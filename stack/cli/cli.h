/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command-line values shared by the tools: parsing (every bad value is named
 * with its option and the accepted range, as docs/development.md asks), the
 * scheduling options, the one way their text output writes a duration, and
 * --ready-file.
 *
 * Part of the tools' internal archive (stack/cli/, libdgrcli.a): linked by the
 * programs of this project, never installed. The installed library
 * (stack/include/dgrdma/) knows nothing of command lines.
 */
#ifndef DGRDMA_CLI_H
#define DGRDMA_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dgrdma/wire.h>

struct dgr_sched;

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The exit status of every tool (docs/cli.md): 0 the job was done; 1 a finding the
 * user asked to fail on (--max-drop-rate exceeded, a setting to fix, ...); 2 bad usage
 * or unreadable input (the command line, a file given to read); 3 a run that failed
 * (could not start, stalled, lost data it had to deliver).
 */
enum dgr_exit_status {
	DGR_EXIT_OK = 0,
	DGR_EXIT_FINDING = 1,
	DGR_EXIT_USAGE = 2,
	DGR_EXIT_FAILED = 3,
};

/*
 * --fpga-buffers, the FPGA's buffers per port, in every tool: an OpenCPI FPGA splits its
 * 64 KiB per port into 2 to 8 buffers; more memory (the mux workaround, the emulator's
 * --fpga-memory) allows up to 64.
 */
#define DGR_FPGA_BUFFERS_MIN 2u
#define DGR_FPGA_BUFFERS_MAX 64u

/*
 * Parses an unsigned decimal (or 0x hex) number for option opt (e.g.
 * "--buffers") into *out. With sizes, a K, M or G suffix multiplies by 1024,
 * 1024^2 or 1024^3. Returns 0, or -DGR_E_INVAL with errbuf like
 * "--buffers: '300' is out of range 1..255", for a value that is no
 * number "--buffers: 'many' is not a number (accepted: 1..255)", and for one
 * with a fraction "--buffers: '1.5' is not a whole number (accepted: 1..255)".
 */
int dgr_parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, bool sizes,
		  uint64_t *out, char *errbuf);

/* The same for a signed value in [min, max] (no suffixes). */
int dgr_parse_i64(const char *opt, const char *s, int64_t min, int64_t max, int64_t *out,
		  char *errbuf);

/*
 * A decimal number with fraction or exponent ("0.02", "2.5e-4", "1e9") for
 * option opt into *out, in [min, max]. Hex, infinities and NaN are no
 * numbers here. Returns 0, or -DGR_E_INVAL with errbuf like
 * "--max-drop-rate: '2' is out of range 0..1" or "--interval: '10x' is not a
 * number (accepted: 1..60000)".
 */
int dgr_parse_f64(const char *opt, const char *s, double min, double max, double *out,
		  char *errbuf);

/* A non-negative decimal number of seconds with fraction ("2.5") into ns, at most max_s. */
int dgr_parse_seconds(const char *opt, const char *s, double max_s, uint64_t *ns, char *errbuf);

/*
 * Parses a sample rate in samples/s for option opt into *out, in [min, max]:
 * a decimal number with fraction or exponent ("200e6", "2.5e8"), optionally
 * followed by k, M or G for 1e3, 1e6 or 1e9 ("200M": rates are decimal, as
 * in MS/s, unlike the binary size suffixes of dgr_parse_u64). Returns 0, or
 * -DGR_E_INVAL with errbuf naming opt and the accepted range.
 */
int dgr_parse_rate(const char *opt, const char *s, double min, double max, double *out,
		   char *errbuf);

/*
 * Parses scheduling options: "fifo:N", "rr:N" (N 1..99), "nice:N" (-20..19)
 * or "other". Returns 0 or -DGR_E_INVAL naming opt and the accepted forms.
 */
int dgr_parse_sched(const char *opt, const char *s, struct dgr_sched *sc, char *errbuf);

/* Parses a CPU list "0,2-3" into a mask (CPUs 0..63). Returns 0 or -DGR_E_INVAL. */
int dgr_parse_cpulist(const char *opt, const char *s, uint64_t *mask, char *errbuf);

/*
 * Writes a duration of ns nanoseconds with the unit chosen for reading:
 * "850 ns", "20.590 us", "2.228 ms", "1.500 s"; a negative one (a margin)
 * with its sign, "-1.296 ms".
 */
void dgr_format_duration(char *buf, size_t size, double ns);

/*
 * --ready-file PATH, shared by dgrdma-host and dgrdma-fpga: a script starts
 * the sender once PATH exists, instead of guessing with a sleep.
 * dgr_ready_file_clear() removes PATH (a file left by an earlier run, before
 * the sockets open; and at exit); a missing PATH is no error.
 * dgr_ready_file_write() creates PATH holding the process id and a newline,
 * atomically (a temporary file beside it, renamed), once every socket is
 * bound and the threads run. Both return 0, or -DGR_E_SYS (-DGR_E_INVAL for
 * a path too long) with errbuf naming --ready-file, the path and the reason.
 */
int dgr_ready_file_clear(const char *path, char *errbuf);
int dgr_ready_file_write(const char *path, char *errbuf);

#ifdef __cplusplus
}
#endif

#endif
