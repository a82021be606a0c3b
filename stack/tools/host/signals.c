// SPDX-License-Identifier: GPL-2.0-or-later
/* dgrdma-host's signals: SIGINT and SIGTERM end every loop soon, SIGPIPE is ignored (host.h). */
#include <signal.h>
#include <string.h>

#include "host.h"

volatile sig_atomic_t host_interrupted;

static void on_signal(int sig)
{
	(void)sig;
	host_interrupted = 1;
}

/* See host.h. */
void host_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}
