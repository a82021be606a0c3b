// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * latency-report --live RUN-FOLDER: a run folder of dgrdma-capture --live
 * followed through the live.url it holds, and once its session ended, its
 * run.json: the facts the offline report takes from it, and whether the
 * trace holds the whole run (docs/analysis.md, "Live"). Given the URL alone,
 * the view cannot tell a session destroyed at the run's end from one cut
 * short by a session daemon that died: the relay daemon ends both alike.
 * How long run.json may take is the recording's own business (--kernel's
 * conversion grows with the run): while dgrdma-capture runs, the view waits;
 * the session's name carries its pid (dgrdma-capture-PID).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <dgrdma/wire.h>

#include "ctf_input.h"
#include "run_info.h"
#include "latency-report.h"

bool lr_live_is_folder(const char *input)
{
	return !strstr(input, "://");
}

static bool entry_exists(const char *path)
{
	struct stat st;

	/* any entry: a broken link is there, and refused by its reader */
	return lstat(path, &st) == 0;
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * The URL in FILE: its one line, whole (dgrdma-capture writes it at once,
 * ended by a newline). Returns 1 with url filled, 0 while the line is not
 * whole, or -DGR_E_* with errbuf.
 */
static int read_url_file(const char *file, char *url, size_t size, char *errbuf)
{
	FILE *f = fopen(file, "r");
	size_t len;

	if (!f) {
		return dgr_errbuf_set(errbuf, DGR_E_SYS, "%s: %s", file, strerror(errno));
	}
	if (!fgets(url, (int)size, f)) {
		url[0] = '\0';
	}
	fclose(f);
	len = strlen(url);
	if (len == 0 || url[len - 1] != '\n') {
		if (len + 1 >= size) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "%s: its line is longer than %zu bytes", file,
					      size - 2);
		}
		return 0;
	}
	url[len - 1] = '\0';
	return 1;
}

/*
 * Whether pid is a running dgrdma-capture: its name, and not a zombie (a
 * parent that has not reaped it yet). Its /proc entry, "PID (NAME) STATE ...".
 */
static bool capture_running(long pid)
{
	char path[64], line[256], *name, *end;
	FILE *f;
	bool running = false;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "r");
	if (!f) {
		return false;
	}
	if (fgets(line, sizeof(line), f) && (name = strchr(line, '(')) &&
	    (end = strrchr(line, ')')) && end[1] == ' ') {
		*end = '\0';
		running = !strcmp(name + 1, "dgrdma-capture") && end[2] != 'Z' && end[2] != 'X';
	}
	fclose(f);
	return running;
}

/* The pid of dgrdma-capture in its session's name, dgrdma-capture-PID: 0 for another name. */
static long session_pid(const char *session)
{
	static const char prefix[] = "dgrdma-capture-";
	char *end;
	long pid;

	if (strncmp(session, prefix, sizeof(prefix) - 1)) {
		return 0;
	}
	errno = 0;
	pid = strtol(session + sizeof(prefix) - 1, &end, 10);
	return errno || *end || pid <= 0 ? 0 : pid;
}

int lr_live_folder_url(const char *dir, char *url, size_t size, long *capture_pid,
		       volatile sig_atomic_t *stop, char *errbuf)
{
	char file[PATH_MAX], run_json[PATH_MAX], why[DGR_ERRBUF_SIZE];
	struct ctf_live_url u;
	int waited_ms = 0, rc = 0;

	snprintf(file, sizeof(file), "%s/live.url", dir);
	snprintf(run_json, sizeof(run_json), "%s/run.json", dir);
	for (;;) {
		struct stat st;

		if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "--live: %s is neither a run folder nor a URL "
					      "(net://RELAYD[:PORT]/host/HOSTNAME/SESSION)",
					      dir);
		}
		if (entry_exists(run_json)) {
			/* its relay daemon ended with it */
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "--live: %s is a finished run (it has run.json): "
					      "read it as it is, latency-report %s",
					      dir, dir);
		}
		rc = -1; /* no live.url yet */
		if (entry_exists(file)) {
			rc = read_url_file(file, url, size, errbuf);
			if (rc < 0) {
				return rc;
			}
			if (rc > 0) {
				break;
			}
		}
		if (*stop || waited_ms >= LR_LIVE_URL_WAIT_S * 1000) {
			return dgr_errbuf_set(
			    errbuf, DGR_E_INVAL,
			    "--live: %s %s%s: not a run of dgrdma-capture --live (it writes "
			    "live.url once its session is up), nor a URL "
			    "(net://RELAYD[:PORT]/host/HOSTNAME/SESSION)",
			    dir,
			    stat(dir, &st) != 0 ? "does not exist"
			    : rc == 0		? "has no whole live.url"
						: "has no live.url",
			    *stop ? "" : " after " LR_STR(LR_LIVE_URL_WAIT_S) " s");
		}
		nap_ms(100);
		waited_ms += 100;
	}
	if (ctf_live_url_parse(url, &u, why) < 0) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "--live: %s: %s", file, why);
	}
	/* seen from here now, while it records: else (another PID namespace) the bounded wait */
	*capture_pid = session_pid(u.session);
	if (*capture_pid && !capture_running(*capture_pid)) {
		*capture_pid = 0;
	}
	return 0;
}

/* Whether a part run.json says was recorded ended before the run did: into why. */
static bool part_lost(const char *name, const struct run_part *p, char *why, size_t size)
{
	if (p->state != RUN_PART_RECORDED || !p->lost[0]) {
		return false;
	}
	snprintf(why, size, "the %s ends before the run did (run.json's %s.lost: %s)",
		 !strcmp(name, "trace")	    ? "trace"
		 : !strcmp(name, "capture") ? "capture"
					    : "kernel's trace",
		 name, p->lost);
	return true;
}

int lr_live_folder_run(const char *dir, long capture_pid, struct run_info *ri,
		       bool *facts_from_run_json, int *whole, volatile sig_atomic_t *stop,
		       bool tell, char *why, size_t why_size, char *errbuf)
{
	char path[PATH_MAX], gone[64] = "";
	struct run_info before = *ri;
	int waited_ms = 0, gone_ms = -1;

	snprintf(path, sizeof(path), "%s/run.json", dir);
	while (!entry_exists(path)) {
		/* it writes run.json, then ends: once it has ended, a moment for the file */
		if (capture_pid && gone_ms < 0 && !capture_running(capture_pid)) {
			gone_ms = waited_ms;
		}
		if (gone_ms >= 0 && waited_ms - gone_ms >= 1000) {
			snprintf(gone, sizeof(gone), "dgrdma-capture (pid %ld) ended without it",
				 capture_pid);
		}
		if (*stop || gone[0] ||
		    (!capture_pid && waited_ms >= LR_LIVE_RUN_JSON_WAIT_S * 1000)) {
			snprintf(
			    why, why_size,
			    "%s has no run.json (%s): dgrdma-capture did not finish the run, "
			    "so whether the trace holds all of it is unknown",
			    dir,
			    *stop ? "the wait for it was interrupted"
			    : gone[0]
				? gone
				: LR_STR(LR_LIVE_RUN_JSON_WAIT_S) " s after the session ended");
			*whole = LR_WHOLE_UNKNOWN;
			return 0;
		}
		if (tell && waited_ms == 1000) {
			if (capture_pid) {
				fprintf(stderr,
					"latency-report: waiting for %s (dgrdma-capture, pid %ld, "
					"writes it when the run ends)\n",
					path, capture_pid);
			} else {
				fprintf(
				    stderr,
				    "latency-report: waiting for %s (dgrdma-capture writes it when "
				    "the run ends; at most " LR_STR(
					LR_LIVE_RUN_JSON_WAIT_S) " s)\n",
				    path);
			}
		}
		nap_ms(100);
		waited_ms += 100;
	}
	if (run_info_read(path, ri, errbuf) < 0) {
		return -DGR_E_INVAL;
	}
	*whole = LR_WHOLE_NO;
	*facts_from_run_json = run_info_facts_added(&before, ri);
	why[0] = '\0';
	if (part_lost("trace", &ri->trace, why, why_size) ||
	    part_lost("capture", &ri->capture, why, why_size) ||
	    part_lost("kernel", &ri->kernel, why, why_size)) {
		return 0;
	}
	*whole = LR_WHOLE_YES;
	return 0;
}
