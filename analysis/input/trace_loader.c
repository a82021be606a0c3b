// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loads the trace reader's module (see trace_module.h) from the program's own
 * tree, never from the library search path: a program reads with the module
 * of its own build, in the build tree as installed.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dgrdma/wire.h>

#include "dgrdma-version.h"
#include "trace_module.h"

/*
 * Whether every loadable segment of the shared object at path lies within
 * the file: dlopen maps a truncated one (an interrupted copy) and dies of
 * SIGBUS on touching what is missing. What is not an ELF object of this
 * machine's class is left for dlopen to refuse. Returns 0, or -DGR_E_INVAL
 * with errbuf filled.
 */
static int check_whole(const char *path, char *errbuf)
{
	ElfW(Ehdr) eh;
	ElfW(Phdr) ph;
	struct stat st;
	unsigned int i;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		return 0;
	}
	if (fstat(fd, &st) != 0 || pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_phentsize != sizeof(ph)) {
		goto end;
	}
	for (i = 0; i < eh.e_phnum && ret == 0; i++) {
		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * sizeof(ph))) !=
			(ssize_t)sizeof(ph) ||
		    (ph.p_type == PT_LOAD && ph.p_offset + ph.p_filesz > (uint64_t)st.st_size)) {
			ret = dgr_errbuf_set(errbuf, DGR_E_INVAL,
					     "the trace reader %.150s is cut short (%lld bytes): "
					     "install it again (make install)",
					     path, (long long)st.st_size);
		}
	}
end:
	close(fd);
	return ret;
}

int trace_module_load(const struct trace_module **m, char *errbuf)
{
	static const struct trace_module *loaded;
	const struct trace_module *t;
	char exe[PATH_MAX], path[PATH_MAX + 64];
	char *slash;
	ssize_t len;
	void *h;
	int ret;

	if (loaded) {
		*m = loaded;
		return 0;
	}
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len < 0) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "the trace reader: cannot find this program's folder "
				      "(/proc/self/exe: %s; is /proc mounted?)",
				      strerror(errno));
	}
	exe[len] = '\0';
	/* PREFIX/bin/latency-report: the module is in PREFIX/TRACE_MODULE_DIR */
	slash = strrchr(exe, '/');
	if (slash) {
		*slash = '\0';
		slash = strrchr(exe, '/');
	}
	if (slash) {
		*slash = '\0';
	}
	snprintf(path, sizeof(path), "%s/" TRACE_MODULE_DIR "/" TRACE_MODULE_FILE, exe);
	ret = check_whole(path, errbuf);
	if (ret < 0) {
		return ret;
	}
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		/* dlerror() names the file and why */
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "the trace reader cannot be loaded: %.170s (make, or make "
				      "install, puts it there)",
				      dlerror());
	}
	t = dlsym(h, "dgr_trace_module");
	if (!t || strcmp(t->version, DGR_VERSION)) {
		dlclose(h);
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "%.150s is not the trace reader of this build (%s): "
				      "install again (make install)",
				      path, DGR_VERSION);
	}
	loaded = t;
	*m = t;
	return 0;
}
