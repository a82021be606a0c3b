// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of latency-report --live RUN-FOLDER (analysis/latency-report/live_folder.c):
 * the URL read from live.url only once whole; a finished folder, a file, a folder that never
 * gets its live.url refused by name; once the session ended, run.json read with the options'
 * facts first, and the trace judged whole, cut (a part's "lost", quoted) or unknown (no
 * run.json). run.json is test/tracepoints/runjson-jq/full.json, a real dgrdma-capture's,
 * with one "lost" set at a time. dgrdma-capture itself is played by a child process of that
 * name (the session's name carries its pid): run.json is waited for while it runs.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "run_info.h"
#include "latency-report.h"
#include "../unit/tap.h"

static char dir[] = "/tmp/test_live_folder.XXXXXX";
static char *full_json;

/* Writes name whole, as its writers do (through name.tmp, renamed). */
static void write_file(const char *name, const char *text)
{
	char path[512], tmp[520];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) || rename(tmp, path)) {
		perror(path);
		exit(1);
	}
}

static void remove_file(const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		perror(path);
		exit(1);
	}
	text = calloc(1, (size_t)n + 1);
	if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		exit(1);
	}
	fclose(f);
	return text;
}

/* full.json as run.json, its nth occurrence (from 0) of from replaced with to. */
static void write_run_json(const char *from, int nth, const char *to)
{
	const char *p = full_json;
	char *out;
	int i;

	for (i = 0; p && i <= nth; i++) {
		p = strstr(i ? p + 1 : p, from);
	}
	out = p ? malloc(strlen(full_json) + strlen(to) + 1) : NULL;
	if (!out) {
		fprintf(stderr, "full.json: no occurrence %d of %s\n", nth, from);
		exit(1);
	}
	sprintf(out, "%.*s%s%s", (int)(p - full_json), full_json, to, p + strlen(from));
	write_file("run.json", out);
	free(out);
}

/*
 * A child named dgrdma-capture that lives ms milliseconds, writing full.json as run.json
 * first when with_run_json; it stays a zombie until reaped (capture_reap).
 */
static pid_t capture_start(int ms, bool with_run_json)
{
	int named[2];
	pid_t pid;
	char c;

	/* returns once the child has its name */
	if (pipe(named)) {
		perror("pipe");
		exit(1);
	}
	pid = fork();
	if (pid == 0) {
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

		prctl(PR_SET_NAME, "dgrdma-capture");
		if (write(named[1], "n", 1) != 1) {
			_exit(1);
		}
		nanosleep(&ts, NULL);
		if (with_run_json) {
			write_file("run.json", full_json);
		}
		_exit(0);
	}
	if (pid < 0 || read(named[0], &c, 1) != 1) {
		perror("fork");
		exit(1);
	}
	close(named[0]);
	close(named[1]);
	return pid;
}

static void capture_reap(pid_t pid)
{
	waitpid(pid, NULL, 0);
}

static void test_url(void)
{
	volatile sig_atomic_t stop = 1;
	char url[256], err[DGR_ERRBUF_SIZE], want[1024];
	long capture_pid;
	pid_t child;

	tap_ok(!lr_live_is_folder("net://127.0.0.1:5344/host/h/s"), "a URL is not a run folder");
	tap_ok(lr_live_is_folder("run"), "a path without :// is a run folder");

	write_file("live.url", "net://127.0.0.1:5344/host/h/s\n");
	TAP_EQ_I(lr_live_folder_url(dir, url, sizeof(url), &capture_pid, &stop, err), 0,
		 "live.url read (%s)", err);
	TAP_EQ_S(url, "net://127.0.0.1:5344/host/h/s", "the URL, its newline taken off");
	TAP_EQ_I(capture_pid, 0, "a session of another name: no dgrdma-capture to watch");

	/* the session of a dgrdma-capture seen running, then of one that has ended */
	child = capture_start(10000, false);
	snprintf(want, sizeof(want), "net://127.0.0.1:5344/host/h/dgrdma-capture-%ld\n",
		 (long)child);
	write_file("live.url", want);
	TAP_EQ_I(lr_live_folder_url(dir, url, sizeof(url), &capture_pid, &stop, err), 0,
		 "a dgrdma-capture session's live.url read (%s)", err);
	TAP_EQ_I(capture_pid, child, "its pid, from the session's name, while it runs");
	kill(child, SIGKILL);
	{
		siginfo_t si;

		/* until it has ended, left a zombie (WNOWAIT) */
		waitid(P_PID, (id_t)child, &si, WEXITED | WNOWAIT);
	}
	TAP_EQ_I(lr_live_folder_url(dir, url, sizeof(url), &capture_pid, &stop, err), 0,
		 "the same, once it has ended (not reaped yet)");
	TAP_EQ_I(capture_pid, 0, "a zombie is not a running dgrdma-capture");
	capture_reap(child);
	snprintf(want, sizeof(want), "net://127.0.0.1:5344/host/h/dgrdma-capture-%ld\n",
		 (long)getpid());
	write_file("live.url", want);
	lr_live_folder_url(dir, url, sizeof(url), &capture_pid, &stop, err);
	TAP_EQ_I(capture_pid, 0, "a pid whose process has another name is no dgrdma-capture");

	/* a line not yet whole is not read: the writer has not finished it */
	write_file("live.url", "net://127.0.0.1:5344/ho");
	TAP_EQ_I(lr_live_folder_url(dir, url, sizeof(url), &capture_pid, &stop, err), -DGR_E_INVAL,
		 "a live.url without its newline is not taken");
	snprintf(want, sizeof(want),
		 "--live: %s has no whole live.url: not a run of dgrdma-capture --live (it writes "
		 "live.url once its session is up), nor a URL "
		 "(net://RELAYD[:PORT]/host/HOSTNAME/SESSION)",
		 dir);
	TAP_EQ_S(err, want, "... and the error says the line is not whole");

	write_file("live.url", "x\n");
	TAP_EQ_I(lr_live_folder_url(dir, url, sizeof(url), &capture_pid, &stop, err), -DGR_E_INVAL,
		 "a live.url that holds no URL is refused");
	tap_ok(strstr(err, "/live.url: 'x' is not an LTTng live URL") != NULL, "... named: %s",
	       err);

	write_file("live.url", "net://127.0.0.1:5344/host/h/s\n");
	write_file("run.json", "{}");
	TAP_EQ_I(lr_live_folder_url(dir, url, sizeof(url), &capture_pid, &stop, err), -DGR_E_INVAL,
		 "a folder with run.json is refused");
	snprintf(want, sizeof(want),
		 "--live: %s is a finished run (it has run.json): read it as it is, "
		 "latency-report %s",
		 dir, dir);
	TAP_EQ_S(err, want, "... as a finished run, read offline");
	remove_file("run.json");
	remove_file("live.url");

	TAP_EQ_I(lr_live_folder_url(dir, url, sizeof(url), &capture_pid, &stop, err), -DGR_E_INVAL,
		 "a folder without live.url, the wait interrupted: refused at once");
	tap_ok(strstr(err, " has no live.url: not a run of dgrdma-capture --live") != NULL,
	       "... named: %s", err);

	TAP_EQ_I(lr_live_folder_url("/nonexistent/run", url, sizeof(url), &capture_pid, &stop, err),
		 -DGR_E_INVAL, "a folder that does not exist, the wait interrupted: refused");
	tap_ok(!strncmp(err, "--live: /nonexistent/run does not exist: ", 41), "... named: %s",
	       err);

	TAP_EQ_I(lr_live_folder_url("/dev/null", url, sizeof(url), &capture_pid, &stop, err),
		 -DGR_E_INVAL, "a file given as a run folder is refused");
	TAP_EQ_S(err,
		 "--live: /dev/null is neither a run folder nor a URL "
		 "(net://RELAYD[:PORT]/host/HOSTNAME/SESSION)",
		 "... named");
}

static void test_run(void)
{
	static const char *const parts[] = { "trace", "capture", "kernel's trace" };
	static const char *const keys[] = { "trace", "capture", "kernel" };
	volatile sig_atomic_t stop = 1;
	char err[DGR_ERRBUF_SIZE], why[512], want[512];
	struct run_info ri;
	bool from_run_json;
	int whole, i;

	/* no run.json, the wait interrupted */
	memset(&ri, 0, sizeof(ri));
	TAP_EQ_I(lr_live_folder_run(dir, 0, &ri, &from_run_json, &whole, &stop, false, why,
				    sizeof(why), err),
		 0, "no run.json: no error");
	TAP_EQ_I(whole, LR_WHOLE_UNKNOWN, "no run.json: whether the run is whole is unknown");
	snprintf(want, sizeof(want),
		 "%s has no run.json (the wait for it was interrupted): dgrdma-capture did not "
		 "finish the run, so whether the trace holds all of it is unknown",
		 dir);
	TAP_EQ_S(why, want, "... and why says so");

	/* whole: the facts are run.json's, the options' first */
	write_file("run.json", full_json);
	memset(&ri, 0, sizeof(ri));
	ri.host_buffers = 7;
	TAP_EQ_I(lr_live_folder_run(dir, 0, &ri, &from_run_json, &whole, &stop, false, why,
				    sizeof(why), err),
		 0, "a whole run's run.json is read (%s)", err);
	TAP_EQ_I(whole, LR_WHOLE_YES, "no part lost: the whole run");
	TAP_EQ_S(why, "", "... nothing to say why");
	TAP_EQ_U(ri.host_buffers, 7, "the options' host buffers come first");
	tap_ok(ri.exit_known, "the run's exit status is known from run.json");
	tap_ok(from_run_json, "run.json gave facts");

	for (i = 0; i < 3; i++) {
		/* trace.lost and capture.lost are full.json's first and second "lost" */
		if (i < 2) {
			write_run_json(
			    "\"lost\": null", i,
			    "\"lost\": \"perf ended during the run (killed by SIGKILL)\"");
		} else {
			write_run_json("\"kernel\": null", 0,
				       "\"kernel\": {\"path\": \"kernel\", \"lost\": \"perf ended "
				       "during the run (killed by SIGKILL)\"}");
		}
		memset(&ri, 0, sizeof(ri));
		TAP_EQ_I(lr_live_folder_run(dir, 0, &ri, &from_run_json, &whole, &stop, false, why,
					    sizeof(why), err),
			 0, "run.json with %s.lost is read (%s)", keys[i], err);
		TAP_EQ_I(whole, LR_WHOLE_NO, "%s.lost: not the whole run", keys[i]);
		snprintf(want, sizeof(want),
			 "the %s ends before the run did (run.json's %s.lost: perf ended during "
			 "the run (killed by SIGKILL))",
			 parts[i], keys[i]);
		TAP_EQ_S(why, want, "%s.lost: why quotes it", keys[i]);
	}

	/* dgrdma-capture seen: waited for while it runs, not for LR_LIVE_RUN_JSON_WAIT_S */
	remove_file("run.json");
	{
		volatile sig_atomic_t go_on = 0;
		pid_t child = capture_start(1500, true);

		memset(&ri, 0, sizeof(ri));
		TAP_EQ_I(lr_live_folder_run(dir, child, &ri, &from_run_json, &whole, &go_on, false,
					    why, sizeof(why), err),
			 0, "dgrdma-capture running: its run.json, written 1.5 s later, read (%s)",
			 err);
		TAP_EQ_I(whole, LR_WHOLE_YES, "... the whole run");
		capture_reap(child);
		remove_file("run.json");

		/* why says which ended the wait: its end, not LR_LIVE_RUN_JSON_WAIT_S */
		child = capture_start(300, false);
		TAP_EQ_I(lr_live_folder_run(dir, child, &ri, &from_run_json, &whole, &go_on, false,
					    why, sizeof(why), err),
			 0, "dgrdma-capture ended without run.json: no error");
		TAP_EQ_I(whole, LR_WHOLE_UNKNOWN, "... whether the run is whole is unknown");
		snprintf(want, sizeof(want),
			 "%s has no run.json (dgrdma-capture (pid %ld) ended without it): "
			 "dgrdma-capture did not finish the run, so whether the trace holds all of "
			 "it is unknown",
			 dir, (long)child);
		TAP_EQ_S(why, want, "... and why names it, as what ended the wait");
		capture_reap(child);
	}

	write_file("run.json", "{\"format\": \"dgrdma-run/2\", \"trace\": 5}");
	TAP_EQ_I(lr_live_folder_run(dir, 0, &ri, &from_run_json, &whole, &stop, false, why,
				    sizeof(why), err),
		 -DGR_E_INVAL, "a run.json that cannot be read is an error");
	tap_ok(err[0] != '\0', "... named: %s", err);
	remove_file("run.json");
}

int main(void)
{
	const char *src = getenv("DGR_SRC");
	char path[512];

	snprintf(path, sizeof(path), "%s/test/tracepoints/runjson-jq/full.json", src ? src : ".");
	full_json = read_all(path);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_url();
	test_run();
	rmdir(dir);
	free(full_json);
	return tap_done();
}
