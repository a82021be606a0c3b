/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Capture input: reads a pcap or pcapng file, a live interface or a file
 * being written with libpcap (nanosecond timestamps requested, so pcapng
 * if_tsresol and ns pcap keep their precision) and takes each frame through
 * one forward pass: decoded once (frame_decode.h: link layer, network layer,
 * UDP ports, what it is), an IP fragment put together with the others of its
 * datagram (ip_defrag.h), then handed to the wire analysis in one call
 * (wa_feed_frame()).
 */
#ifndef DGR_ANALYSIS_PCAP_INPUT_H
#define DGR_ANALYSIS_PCAP_INPUT_H

#include <stdbool.h>
#include <stdint.h>

#include <pcap/pcap.h>

#include "wire_analysis.h"

/*
 * Feeds one captured frame, the ref-th (not 0), of link type dlt (one that
 * pcap_input_read() accepts, fd_link_supported()) to the wire analysis:
 * h->caplen bytes at data of h->len on the wire, decoded with w's UDP ports.
 * Anything a hostile capture holds is counted, never fatal.
 */
void pcap_input_feed(struct wire_analysis *w, int dlt, const struct pcap_pkthdr *h,
		     const u_char *data, uint64_t ref);

/* True when the file starts with a pcap or pcapng magic number. */
bool pcap_input_is_capture(const char *path);

/* pcap_input_read(): the capture was read up to a cut or damaged record. */
#define PCAP_INPUT_PARTIAL 1

/*
 * Reads the whole capture into w. progress: show a progress line on stderr
 * after a second (when stderr is a terminal). Returns 0; PCAP_INPUT_PARTIAL
 * when libpcap stopped at a cut or damaged record after some frames (those
 * were fed to w; errbuf says how many, up to which byte, and libpcap's
 * reason); or a negative DGR_E_* code with errbuf filled: the file cannot be
 * opened, its link type carries no DG-RDMA, or not one frame could be read.
 */
int pcap_input_read(const char *path, struct wire_analysis *w, bool progress, char *errbuf);

/*
 * pcap_input_read() on a capture already open (pc, opened with nanosecond
 * timestamps; the caller closes it): path names it in messages, size is its
 * length in bytes for the progress line and the messages (-1: unknown, no
 * progress). Frames are numbered from *ref + 1, which is left at the last
 * one, so the files of one capture number their frames as one. Same returns.
 */
int pcap_input_read_pcap(pcap_t *pc, const char *path, long long size, struct wire_analysis *w,
			 bool progress, uint64_t *ref, char *errbuf);

/*
 * Parses a MAC (aa:bb:cc:dd:ee:ff), an IPv4 address[:port] or an IPv6
 * address, bare or [address]:port. Returns the number of significant bytes (6
 * for a MAC or IPv4:port, 4 for a bare IPv4 address, 16 or 18 for IPv6), or
 * -DGR_E_INVAL.
 */
int pcap_input_parse_addr(const char *s, struct eng_addr *a);

/* A live capture on an interface (latency-report --live --live-if). */
struct pcap_live;

/*
 * Opens iface for capture with the BPF filter, handing every frame over at
 * once (immediate mode, ns timestamps), feeding w; save: also write the
 * frames to this pcap file (NULL: no). Returns 0, or a negative DGR_E_* code
 * with errbuf filled (-DGR_E_INVAL for a bad filter or link type).
 */
int pcap_input_live_open(const char *iface, const char *filter, const char *save,
			 struct wire_analysis *w, struct pcap_live **out, char *errbuf);
/* The descriptor to poll for frames. */
int pcap_input_live_fd(const struct pcap_live *l);
/* Feeds the frames that have arrived (non-blocking). Returns their count, or -DGR_E_SYS. */
int pcap_input_live_read(struct pcap_live *l, char *errbuf);
/* Closes the capture (and the saved file). Returns 0, or -DGR_E_SYS when saving failed. */
int pcap_input_live_close(struct pcap_live *l, char *errbuf);

/*
 * A capture file followed while another program writes it (latency-report
 * --live --live-follow): every complete record is fed as soon as it is read;
 * a record not yet written to its end (libpcap: EOF, or a truncated record)
 * is read again from its start once more of the file is there.
 */
struct pcap_follow;

/*
 * Follows path (which need not exist yet) into w. Returns 0, or a negative
 * DGR_E_* code with errbuf filled (memory, the timer; -DGR_E_INVAL for a file
 * there already that is not a capture or of a link type without DG-RDMA).
 */
int pcap_input_follow_open(const char *path, struct wire_analysis *w, struct pcap_follow **out,
			   char *errbuf);
/* A descriptor to poll: readable every 50 ms (a timer), when the file may have grown. */
int pcap_input_follow_fd(const struct pcap_follow *f);
/*
 * Feeds the records written since the last call. Returns their count, or a
 * negative DGR_E_* code with errbuf filled: -DGR_E_INVAL for a file that is
 * not a pcap or pcapng capture or whose link type carries no DG-RDMA.
 */
int pcap_input_follow_read(struct pcap_follow *f, char *errbuf);
/*
 * The last read. writer_done: the writer has finished, so the file must end
 * on a whole record (it is read again for up to a second while it does not);
 * otherwise (an interrupted view) a record cut at the end is left out.
 * Returns the count of records fed, or a negative DGR_E_* code with errbuf
 * filled: -DGR_E_INVAL when no capture could be opened, or it ends on a cut
 * or damaged record (naming libpcap's reason and the frames read).
 */
int pcap_input_follow_finish(struct pcap_follow *f, bool writer_done, char *errbuf);
void pcap_input_follow_close(struct pcap_follow *f);

#endif
