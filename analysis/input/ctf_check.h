/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Checks of a CTF trace folder before libbabeltrace2 reads it. babeltrace2
 * 2.0.4 loops forever on a packetized metadata file cut inside a packet (at
 * 37, 100 or 10240 bytes of an LTTng trace), so the metadata is checked first:
 * whole packets with consistent headers, then a text that is not cut short
 * (comments, strings and braces closed, a trace block, a final ';'). Stream
 * files must start with the CTF packet magic, and an LTTng index, when
 * present, must describe whole packets that each start with the magic.
 * What passes can still be damaged inside (babeltrace2 then reports an error,
 * and ctf_input.c runs it under a watchdog). Pure functions on buffers, except
 * ctf_check_dir(); errbuf is DGR_ERRBUF_SIZE bytes or NULL.
 */
#ifndef DGR_ANALYSIS_CTF_CHECK_H
#define DGR_ANALYSIS_CTF_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CTF_METADATA_MAGIC   0x75D11D57u
#define CTF_PACKET_MAGIC     0xC1FC1FC1u
#define CTF_INDEX_MAGIC	     0xC1F1DCC1u
#define CTF_METADATA_HDR_LEN 37
#define CTF_MAX_METADATA     (256u << 20)

struct ctf_meta_facts {
	bool packetized;      /* false: plain text starting with the CTF 1.8 signature */
	bool big_endian;      /* from the packet magic (packetized only) */
	size_t packets;	      /* metadata packets */
	size_t text_len;      /* bytes of TSDL text */
	unsigned int streams; /* stream declarations in the text */
};

/*
 * Checks a metadata file's bytes. Returns 0 with *mf filled, or -DGR_E_INVAL
 * with errbuf saying what is wrong and where (byte offsets).
 */
int ctf_check_metadata(const uint8_t *buf, size_t len, struct ctf_meta_facts *mf, char *errbuf);

/* Checks TSDL text (not NUL-terminated): see above. Returns 0 or -DGR_E_INVAL. */
int ctf_check_tsdl(const char *text, size_t len, unsigned int *streams, char *errbuf);

/*
 * Checks the first bytes of a stream file of size file_size (buf holds
 * min(file_size, len) bytes): empty, or the packet magic in the trace's byte
 * order. Returns 0 or -DGR_E_INVAL.
 */
int ctf_check_stream_start(const uint8_t *buf, size_t len, uint64_t file_size,
			   const struct ctf_meta_facts *mf, char *errbuf);

/*
 * Checks an LTTng index (index/NAME.idx: big-endian header and entries of
 * offset, packet_size and content_size in bits, ...) against its stream of
 * stream_size bytes: whole entries, packets back to back from 0 inside the
 * stream, content within each packet. The packets must reach the end of the
 * stream unless indexed_end is not NULL: it then receives where they end, and
 * a stream longer than its index is the caller's to judge (a session whose
 * daemon died sends its last packets without their index entries). On
 * success returns the number of packets and, when offsets is not NULL, stores
 * up to max_offsets packet offsets there. Returns -DGR_E_INVAL on a bad index.
 */
long ctf_check_index(const uint8_t *buf, size_t len, uint64_t stream_size, uint64_t *offsets,
		     size_t max_offsets, uint64_t *indexed_end, char *errbuf);

/*
 * Checks every trace file of dir (the folder holding `metadata`): the
 * metadata, each stream file's start, and the index of each stream with the
 * magic at each packet it names. A stream longer than its index is accepted
 * when a packet starts where the index ends (libbabeltrace2 then indexes that
 * stream from its packets); *unindexed_bytes (not NULL) is increased by the
 * bytes past such indexes. Returns 0, -DGR_E_INVAL (errbuf names the file),
 * -DGR_E_SYS (a file cannot be read) or -DGR_E_NOMEM.
 */
int ctf_check_dir(const char *dir, uint64_t *unindexed_bytes, char *errbuf);

#endif
