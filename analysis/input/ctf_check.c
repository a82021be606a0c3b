// SPDX-License-Identifier: GPL-2.0-or-later
/* Checks of a CTF trace before libbabeltrace2 reads it (see ctf_check.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dgrdma/wire.h>

#include "cli.h"
#include "ctf_check.h"

#define MAX_NESTING 256

static uint32_t get32(const uint8_t *p, bool big)
{
	if (big) {
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	}
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static uint64_t get64be(const uint8_t *p)
{
	return (uint64_t)get32(p, true) << 32 | get32(p + 4, true);
}

static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* See ctf_check.h. */
int ctf_check_tsdl(const char *t, size_t n, unsigned int *streams, char *errbuf)
{
	enum { CODE, LINE_COMMENT, BLOCK_COMMENT, STRING, CHAR } st = CODE;
	char open[MAX_NESTING];
	size_t depth = 0, i, start = 0, id_start = 0, id_len = 0;
	size_t opened_at = 0;
	bool trace_block = false;
	char last = '\0';

	*streams = 0;
	for (i = 0; i < n; i++) {
		char c = t[i];

		if (c == '\0') {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "a NUL byte in the text at byte %zu", i);
		}
		switch (st) {
		case LINE_COMMENT:
			if (c == '\n') {
				st = CODE;
			}
			continue;
		case BLOCK_COMMENT:
			if (c == '*' && i + 1 < n && t[i + 1] == '/') {
				st = CODE;
				i++;
			}
			continue;
		case STRING:
		case CHAR:
			if (c == '\\') {
				i++;
			} else if (c == (st == STRING ? '"' : '\'')) {
				st = CODE;
				last = c;
			}
			continue;
		case CODE:
			break;
		}
		if (c == '/' && i + 1 < n && (t[i + 1] == '/' || t[i + 1] == '*')) {
			st = t[i + 1] == '/' ? LINE_COMMENT : BLOCK_COMMENT;
			start = i;
			i++;
			continue;
		}
		if (c == '"' || c == '\'') {
			st = c == '"' ? STRING : CHAR;
			start = i;
			continue;
		}
		if (is_ident(c)) {
			if (i == 0 || !is_ident(t[i - 1])) {
				id_start = i;
			}
			id_len = i - id_start + 1;
			last = c;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			continue;
		}
		if (c == '{' || c == '[' || c == '(') {
			if (depth == MAX_NESTING) {
				return dgr_errbuf_set(errbuf, DGR_E_INVAL,
						      "brackets nested deeper than %d at byte %zu",
						      MAX_NESTING, i);
			}
			if (c == '{' && depth == 0 && last != '\0' && is_ident(last)) {
				/* "trace {" and "stream {" at the top level */
				if (id_len == 5 && !strncmp(t + id_start, "trace", 5)) {
					trace_block = true;
				} else if (id_len == 6 && !strncmp(t + id_start, "stream", 6)) {
					(*streams)++;
				}
			}
			if (depth == 0) {
				opened_at = i;
			}
			open[depth++] = c;
		} else if (c == '}' || c == ']' || c == ')') {
			char want = c == '}' ? '{' : c == ']' ? '[' : '(';

			if (depth == 0 || open[depth - 1] != want) {
				return dgr_errbuf_set(errbuf, DGR_E_INVAL,
						      "'%c' at byte %zu closes nothing opened", c,
						      i);
			}
			depth--;
		}
		last = c;
	}
	switch (st) {
	case LINE_COMMENT:
	case CODE:
		break;
	case BLOCK_COMMENT:
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "cut short: the comment opened at byte %zu is not closed",
				      start);
	case STRING:
	case CHAR:
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "cut short: the string opened at byte %zu is not closed",
				      start);
	}
	if (depth) {
		return dgr_errbuf_set(
		    errbuf, DGR_E_INVAL,
		    "cut short: %zu bracket(s) not closed at the end (the outermost opened "
		    "at byte %zu)",
		    depth, opened_at);
	}
	if (last != ';') {
		return dgr_errbuf_set(
		    errbuf, DGR_E_INVAL,
		    "cut short: the text does not end with a complete declaration "
		    "(';')");
	}
	if (!trace_block) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "no 'trace { ... };' block");
	}
	return 0;
}

/* Packetized metadata: whole packets; returns the text (malloc'd) in *text. */
static int unpack_metadata(const uint8_t *buf, size_t len, struct ctf_meta_facts *mf, char **text,
			   char *errbuf)
{
	const uint8_t *uuid = buf + 4;
	size_t off = 0, tl = 0;
	char *t;

	t = malloc(len ? len : 1);
	if (!t) {
		return -DGR_E_NOMEM;
	}
	while (off < len) {
		const uint8_t *h = buf + off;
		uint32_t content, size;

		mf->packets++;
		if (len - off < CTF_METADATA_HDR_LEN) {
			free(t);
			return dgr_errbuf_set(
			    errbuf, DGR_E_INVAL,
			    "cut short: %zu byte(s) after the last whole packet, at byte "
			    "%zu (a packet header has %d)",
			    len - off, off, CTF_METADATA_HDR_LEN);
		}
		if (get32(h, mf->big_endian) != CTF_METADATA_MAGIC) {
			free(t);
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "packet %zu at byte %zu: no metadata packet magic",
					      mf->packets, off);
		}
		if (memcmp(h + 4, uuid, 16) != 0) {
			free(t);
			return dgr_errbuf_set(
			    errbuf, DGR_E_INVAL,
			    "packet %zu at byte %zu: its trace UUID differs from packet 1's",
			    mf->packets, off);
		}
		content = get32(h + 24, mf->big_endian);
		size = get32(h + 28, mf->big_endian);
		if (content % 8 || size % 8 || content < CTF_METADATA_HDR_LEN * 8 ||
		    content > size) {
			free(t);
			return dgr_errbuf_set(
			    errbuf, DGR_E_INVAL,
			    "packet %zu at byte %zu: content size %" PRIu32
			    " bits and packet size %" PRIu32
			    " bits are inconsistent (whole bytes, header <= content <= "
			    "packet)",
			    mf->packets, off, content, size);
		}
		if (h[32] || h[33] || h[34]) {
			free(t);
			return dgr_errbuf_set(
			    errbuf, DGR_E_INVAL,
			    "packet %zu at byte %zu: compressed, encrypted or checksummed "
			    "(schemes %u, %u, %u), which CTF readers do not support",
			    mf->packets, off, h[32], h[33], h[34]);
		}
		if (h[35] != 1 || h[36] != 8) {
			free(t);
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "packet %zu at byte %zu: CTF version %u.%u, not 1.8",
					      mf->packets, off, h[35], h[36]);
		}
		if (size / 8 > len - off) {
			free(t);
			return dgr_errbuf_set(
			    errbuf, DGR_E_INVAL,
			    "cut short: packet %zu at byte %zu has %zu of its %" PRIu32 " bytes",
			    mf->packets, off, len - off, size / 8);
		}
		memcpy(t + tl, h + CTF_METADATA_HDR_LEN, content / 8 - CTF_METADATA_HDR_LEN);
		tl += content / 8 - CTF_METADATA_HDR_LEN;
		off += size / 8;
	}
	*text = t;
	mf->text_len = tl;
	return 0;
}

/* True when buf[0..len), len < 4, starts the metadata packet magic in either byte order. */
static bool is_magic_prefix(const uint8_t *buf, size_t len)
{
	static const uint8_t le[4] = { 0x57, 0x1D, 0xD1, 0x75 }, be[4] = { 0x75, 0xD1, 0x1D, 0x57 };

	return len < 4 && (!memcmp(buf, le, len) || !memcmp(buf, be, len));
}

/* See ctf_check.h. */
int ctf_check_metadata(const uint8_t *buf, size_t len, struct ctf_meta_facts *mf, char *errbuf)
{
	static const char sig[] = "/* CTF 1.8";
	char msg[DGR_ERRBUF_SIZE];
	char *text = NULL;
	int rc;

	memset(mf, 0, sizeof(*mf));
	if (len == 0) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "empty");
	}
	if (len >= 4 &&
	    (get32(buf, false) == CTF_METADATA_MAGIC || get32(buf, true) == CTF_METADATA_MAGIC)) {
		mf->packetized = true;
		mf->big_endian = get32(buf, true) == CTF_METADATA_MAGIC;
		rc = unpack_metadata(buf, len, mf, &text, errbuf);
		if (rc < 0) {
			return rc;
		}
		rc = ctf_check_tsdl(text, mf->text_len, &mf->streams, msg);
		free(text);
		if (rc < 0) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL, "text of %zu packet(s): %s",
					      mf->packets, msg);
		}
		return 0;
	}
	if (len < sizeof(sig) - 1 && (!memcmp(buf, sig, len) || is_magic_prefix(buf, len))) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "cut short: %zu byte(s), the start of a metadata file", len);
	}
	if (len < sizeof(sig) - 1 || memcmp(buf, sig, sizeof(sig) - 1) != 0) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "neither a packetized metadata file (magic 0x%08X) nor CTF "
				      "text (starting \"/* CTF 1.8\")",
				      CTF_METADATA_MAGIC);
	}
	mf->text_len = len;
	return ctf_check_tsdl((const char *)buf, len, &mf->streams, errbuf);
}

/* See ctf_check.h. */
int ctf_check_stream_start(const uint8_t *buf, size_t len, uint64_t file_size,
			   const struct ctf_meta_facts *mf, char *errbuf)
{
	bool ok;

	if (file_size == 0) {
		return 0; /* a stream without packets: LTTng creates them so */
	}
	if (len < 4 || file_size < 4) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "%" PRIu64 " byte(s): shorter than a packet header",
				      file_size);
	}
	ok = mf->packetized
		 ? get32(buf, mf->big_endian) == CTF_PACKET_MAGIC
		 : get32(buf, false) == CTF_PACKET_MAGIC || get32(buf, true) == CTF_PACKET_MAGIC;
	if (!ok) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "no CTF packet magic (0x%08X) at byte 0",
				      CTF_PACKET_MAGIC);
	}
	return 0;
}

/* See ctf_check.h. */
long ctf_check_index(const uint8_t *buf, size_t len, uint64_t stream_size, uint64_t *offsets,
		     size_t max_offsets, uint64_t *indexed_end, char *errbuf)
{
	uint32_t major, entry;
	uint64_t expect = 0;
	size_t off, n = 0;

	if (len < 16 || get32(buf, true) != CTF_INDEX_MAGIC) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL, "no index header (magic 0x%08X)",
				      CTF_INDEX_MAGIC);
	}
	major = get32(buf + 4, true);
	entry = get32(buf + 12, true);
	if (major != 1 || entry < 24 || entry > 4096) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "index version %" PRIu32 " with %" PRIu32 "-byte entries "
				      "(known: version 1, 24..4096 bytes)",
				      major, entry);
	}
	if ((len - 16) % entry) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "cut short: %zu byte(s) after the last whole entry",
				      (len - 16) % entry);
	}
	for (off = 16; off < len; off += entry, n++) {
		uint64_t at = get64be(buf + off), size = get64be(buf + off + 8),
			 content = get64be(buf + off + 16);

		if (at != expect) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "entry %zu: packet at byte %" PRIu64
					      ", expected %" PRIu64 " (packets back to back)",
					      n + 1, at, expect);
		}
		if (size == 0 || size % 8 || content > size) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "entry %zu: packet size %" PRIu64
					      " bits, content %" PRIu64
					      " bits (whole bytes, content <= packet)",
					      n + 1, size, content);
		}
		if (size / 8 > stream_size - at) {
			return dgr_errbuf_set(errbuf, DGR_E_INVAL,
					      "entry %zu: packet at byte %" PRIu64 " of %" PRIu64
					      " bytes runs past the stream's end (%" PRIu64
					      " bytes): the stream file is cut short",
					      n + 1, at, size / 8, stream_size);
		}
		if (offsets && n < max_offsets) {
			offsets[n] = at;
		}
		expect = at + size / 8;
	}
	if (indexed_end) {
		*indexed_end = expect;
	} else if (expect != stream_size) {
		return dgr_errbuf_set(errbuf, DGR_E_INVAL,
				      "its %zu packet(s) end at byte %" PRIu64
				      ", the stream file has %" PRIu64 " bytes",
				      n, expect, stream_size);
	}
	return (long)n;
}

/* Reads a whole file of at most max bytes into *buf (malloc'd). */
static int read_file(const char *path, size_t max, uint8_t **buf, size_t *len, char *errbuf)
{
	struct stat st;
	uint8_t *b = NULL;
	ssize_t got;
	size_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) != 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.200s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
		}
		return -DGR_E_SYS;
	}
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > max) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.200s: not a regular file of at most %zu MiB",
			 path, max >> 20);
		close(fd);
		return -DGR_E_INVAL;
	}
	b = malloc((size_t)st.st_size + 1);
	if (!b) {
		close(fd);
		return -DGR_E_NOMEM;
	}
	while (n < (size_t)st.st_size && (got = read(fd, b + n, (size_t)st.st_size - n)) > 0) {
		n += (size_t)got;
	}
	close(fd);
	*buf = b;
	*len = n;
	return 0;
}

/* One stream file: its start, and its index when there is one. */
static int check_stream(const char *dir, const char *name, const struct ctf_meta_facts *mf,
			uint64_t *unindexed_bytes, char *errbuf)
{
	char path[4096], idx[4096], msg[DGR_ERRBUF_SIZE];
	uint8_t head[4], *ib = NULL;
	uint64_t offs[4096], indexed_end = 0;
	struct stat st;
	size_t il = 0;
	long packets, i;
	int fd, rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.200s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
		}
		return -DGR_E_SYS;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.200s: not a regular file", path);
		rc = -DGR_E_INVAL;
		goto end;
	}
	memset(head, 0, sizeof(head));
	if (pread(fd, head, sizeof(head), 0) < 0 ||
	    ctf_check_stream_start(head, sizeof(head), (uint64_t)st.st_size, mf, msg) < 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.100s: %.150s", path, msg);
		rc = -DGR_E_INVAL;
		goto end;
	}
	snprintf(idx, sizeof(idx), "%s/index/%s.idx", dir, name);
	if (access(idx, F_OK) != 0) {
		goto end;
	}
	rc = read_file(idx, 64u << 20, &ib, &il, errbuf);
	if (rc < 0) {
		goto end;
	}
	packets = ctf_check_index(ib, il, (uint64_t)st.st_size, offs,
				  sizeof(offs) / sizeof(offs[0]), &indexed_end, msg);
	if (packets < 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.100s: %.150s", idx, msg);
		rc = -DGR_E_INVAL;
		goto end;
	}
	for (i = 0; i < packets && (size_t)i < sizeof(offs) / sizeof(offs[0]); i++) {
		if (pread(fd, head, sizeof(head), (off_t)offs[i]) != (ssize_t)sizeof(head) ||
		    ctf_check_stream_start(head, sizeof(head), sizeof(head), mf, msg) < 0) {
			snprintf(errbuf, DGR_ERRBUF_SIZE,
				 "%.180s: packet %ld at byte %" PRIu64 " (from its index): no "
				 "CTF packet magic",
				 path, i + 1, offs[i]);
			rc = -DGR_E_INVAL;
			goto end;
		}
	}
	if (indexed_end < (uint64_t)st.st_size) {
		/* packets sent without their index entries: a packet must start there */
		if (pread(fd, head, sizeof(head), (off_t)indexed_end) != (ssize_t)sizeof(head) ||
		    ctf_check_stream_start(head, sizeof(head), sizeof(head), mf, msg) < 0) {
			snprintf(msg, sizeof(msg),
				 "its %ld packet(s) end at byte %" PRIu64
				 ", the stream file has %" PRIu64
				 " bytes and no packet starts there",
				 packets, indexed_end, (uint64_t)st.st_size);
			snprintf(errbuf, DGR_ERRBUF_SIZE, "%.100s: %.150s", idx, msg);
			rc = -DGR_E_INVAL;
			goto end;
		}
		if (unindexed_bytes) {
			*unindexed_bytes += (uint64_t)st.st_size - indexed_end;
		}
	}
end:
	free(ib);
	close(fd);
	return rc;
}

/* See ctf_check.h. */
int ctf_check_dir(const char *dir, uint64_t *unindexed_bytes, char *errbuf)
{
	char path[4096], msg[DGR_ERRBUF_SIZE];
	struct ctf_meta_facts mf;
	struct dirent *de;
	uint8_t *buf = NULL;
	size_t len = 0;
	DIR *d;
	int rc;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	rc = read_file(path, CTF_MAX_METADATA, &buf, &len, errbuf);
	if (rc < 0) {
		return rc;
	}
	rc = ctf_check_metadata(buf, len, &mf, msg);
	free(buf);
	if (rc < 0) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.100s: %.150s", path, msg);
		return rc;
	}
	d = opendir(dir);
	if (!d) {
		snprintf(errbuf, DGR_ERRBUF_SIZE, "%.200s: %s", dir, strerror(errno));
		return -DGR_E_SYS;
	}
	while (rc == 0 && (de = readdir(d)) != NULL) {
		struct stat st;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "metadata")) {
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			continue; /* index/ */
		}
		rc = check_stream(dir, de->d_name, &mf, unindexed_bytes, errbuf);
	}
	closedir(d);
	return rc;
}
