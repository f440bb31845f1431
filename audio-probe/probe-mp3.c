/* The probe's MP3 source: the file is mmap()ed (so its pages fault in, and can be paged out,
 * like the player's own memory), checked and scanned once with libmpg123, then decoded to S16
 * stereo at the file's first rate in a loop. Kernel paths: mmap, page faults, readahead. */
#include <errno.h>
#include <fcntl.h>
#include <mpg123.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audio-probe/probe-internal.h"
#include "audio-probe/probe.h"
#include "core/util.h"

static ssize_t map_read(void *h, void *buf, size_t n)
{
	struct vms_mp3 *m = h;
	size_t left = m->len - m->pos;

	if (n > left)
		n = left;
	memcpy(buf, (const char *)m->map + m->pos, n);
	m->pos += n;
	return (ssize_t)n;
}

static off_t map_lseek(void *h, off_t off, int whence)
{
	struct vms_mp3 *m = h;
	off_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? (off_t)m->pos : (off_t)m->len;

	if (base + off < 0 || base + off > (off_t)m->len)
		return -1;
	m->pos = (size_t)(base + off);
	return (off_t)m->pos;
}

static int open_stream(struct vms_mp3 *m, long rate)
{
	mpg123_handle *mh = m->mh;

	if (rate > 0) {
		mpg123_format_none(mh);
		if (mpg123_format(mh, rate, MPG123_STEREO, MPG123_ENC_SIGNED_16) != MPG123_OK)
			return -1;
	}
	m->pos = 0;
	if (mpg123_replace_reader_handle(mh, map_read, map_lseek, NULL) != MPG123_OK)
		return -1;
	return mpg123_open_handle(mh, m) == MPG123_OK ? 0 : -1;
}

static void sha256_hex(const void *data, size_t len, char *out)
{
	struct sha256_ctx ctx;
	uint8_t d[SHA256_DIGEST_SIZE];
	size_t i;

	sha256_init(&ctx);
	sha256_update(&ctx, len, data);
	sha256_digest(&ctx, sizeof(d), d);
	for (i = 0; i < sizeof(d); i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static int looks_like_text(const unsigned char *p, size_t n)
{
	size_t i;

	if (n > 512)
		n = 512;
	for (i = 0; i < n; i++)
		if (p[i] < 0x09 || (p[i] > 0x0d && p[i] < 0x20) || p[i] == 0x7f)
			return 0;
	return 1;
}

static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

int vms_mp3_check_stat(const char *path, const struct stat *st, char *err, size_t errlen)
{
	struct stat own;

	if (!st) {
		if (stat(path, &own) < 0) {
			snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
			return -1;
		}
		st = &own;
	}
	if (!S_ISREG(st->st_mode)) {
		snprintf(err, errlen, "'%s' is %s, not an MP3 file", path, file_kind(st->st_mode));
		return -1;
	}
	if (st->st_size == 0) {
		snprintf(err, errlen, "'%s' is empty, not an MP3 file", path);
		return -1;
	}
	if ((unsigned long long)st->st_size > VMS_PROBE_MP3_MAX_BYTES) {
		snprintf(err, errlen,
		         "'%s' is %.1f GiB: too big; the probe plays MP3 files up to %llu MiB",
		         path, (double)st->st_size / (1 << 30), VMS_PROBE_MP3_MAX_BYTES >> 20);
		return -1;
	}
	return 0;
}

int vms_mp3_open(struct vms_mp3 *m, const char *path, struct vms_mp3_facts *f, char *err,
                 size_t errlen)
{
	static const char *const versions[] = {"1", "2", "2.5"};
	struct mpg123_frameinfo fi;
	struct stat st;
	const unsigned char *p;
	unsigned char *audio;
	size_t bytes, out_bytes = 0;
	off_t num, end, first = -1, last_end = 0;
	long rate, enc_dummy;
	int fd, ch, enc, ret = MPG123_ERR; /* mpg123_init() failing sets no ret */

	memset(m, 0, sizeof(*m));
	memset(f, 0, sizeof(*f));
	/* checked before (vms_probe_start); O_NONBLOCK: a FIFO swapped in since must not block */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		goto fail_fd;
	}
	if (vms_mp3_check_stat(path, &st, err, errlen))
		goto fail_fd;
	m->len = (size_t)st.st_size;
	m->map = mmap(NULL, m->len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m->map == MAP_FAILED) {
		m->map = NULL;
		snprintf(err, errlen, "cannot map '%s': %s", path, strerror(errno));
		goto fail_fd;
	}
	close(fd);
	p = m->map;
	sha256_hex(m->map, m->len, f->sha256);
	if (m->len >= 12 && !memcmp(p, "RIFF", 4) && !memcmp(p + 8, "WAVE", 4)) {
		snprintf(err, errlen, "'%s' is a WAV file, not an MP3; vmsuite plays MP3 only",
		         path);
		goto fail;
	}
	if (looks_like_text(p, m->len)) {
		snprintf(err, errlen, "'%s' is a text file, not an MP3", path);
		goto fail;
	}

	if (mpg123_init() != MPG123_OK) /* a no-op since 1.27, kept for older libraries */
		goto fail_lib;
	m->mh = mpg123_new(NULL, &ret);
	if (!m->mh)
		goto fail_lib;
	mpg123_param(m->mh, MPG123_ADD_FLAGS, MPG123_QUIET, 0);
	mpg123_param(m->mh, MPG123_RESYNC_LIMIT, -1, 0);
	if (open_stream(m, 0) || mpg123_getformat(m->mh, &rate, &ch, &enc) != MPG123_OK) {
		snprintf(err, errlen, "'%s' is not an MP3 (no MPEG audio frames found)", path);
		goto fail;
	}
	mpg123_close(m->mh);
	if (open_stream(m, rate) || mpg123_getformat(m->mh, &enc_dummy, &ch, &enc) != MPG123_OK) {
		snprintf(err, errlen, "'%s': libmpg123 cannot decode it to 16-bit stereo at %ld Hz",
		         path, rate);
		goto fail;
	}
	mpg123_info(m->mh, &fi);
	f->rate = rate;
	snprintf(f->version, sizeof(f->version), "%s",
	         (unsigned)fi.version < 3 ? versions[fi.version] : "?");
	f->layer = fi.layer;
	f->channels = fi.mode == MPG123_M_MONO ? 1 : 2;
	f->bitrate_kbps = fi.bitrate;
	snprintf(f->mode, sizeof(f->mode), "%s",
	         fi.vbr == MPG123_VBR   ? "vbr"
	         : fi.vbr == MPG123_ABR ? "abr"
	                                : "cbr");
	f->frames_expected = (long)mpg123_framelength(m->mh);
	snprintf(f->decoder, sizeof(f->decoder), "libmpg123 API %d (%s)", MPG123_API_VERSION,
	         mpg123_current_decoder(m->mh));

	for (;;) {
		ret = mpg123_decode_frame(m->mh, &num, &audio, &bytes);
		if (ret == MPG123_NEW_FORMAT)
			continue;
		if (ret != MPG123_OK)
			break;
		f->frames++;
		out_bytes += bytes;
		if (mpg123_info(m->mh, &fi) != MPG123_OK)
			continue;
		if (fi.rate != rate) {
			f->rate_changes++;
			f->other_rate = fi.rate;
		}
		/* bytes skipped since the frame before: libmpg123 resynchronised past damage */
		end = mpg123_tell_stream(m->mh);
		if (end >= 0) {
			off_t start = end - fi.framesize;

			if (first < 0)
				first = start;
			else if (start > last_end) {
				f->resyncs++;
				f->damaged_bytes += (long)(start - last_end);
			}
			last_end = end;
		}
	}
	f->audio_bytes = first >= 0 && last_end > first ? (long)(last_end - first) : 0;
	if (ret != MPG123_DONE && ret != MPG123_ERR) {
		snprintf(err, errlen, "'%s': %s", path, mpg123_plain_strerror(ret));
		goto fail;
	}
	if (f->frames < 10 || out_bytes == 0) {
		snprintf(err, errlen, "'%s' is not an MP3 (%ld MPEG audio frames found)", path,
		         f->frames);
		goto fail;
	}
	if (f->audio_bytes > 0 && 100.0 * (double)f->damaged_bytes >
	                              VMS_PROBE_MP3_DAMAGE_MAX_PCT * (double)f->audio_bytes) {
		snprintf(err, errlen,
		         "'%s' is corrupt: %.1f %% of its audio data cannot be decoded (libmpg123 "
		         "skipped %ld bytes in %ld places); vmsuite refuses more than %.0f %%",
		         path, 100.0 * (double)f->damaged_bytes / (double)f->audio_bytes,
		         f->damaged_bytes, f->resyncs, VMS_PROBE_MP3_DAMAGE_MAX_PCT);
		goto fail;
	}
	f->duration_s = (double)out_bytes / 4.0 / (double)rate;
	f->avg_kbps = (double)m->len * 8.0 / 1000.0 / f->duration_s;
	if (f->frames_expected > f->frames + 2)
		f->frames_dropped = f->frames_expected - f->frames;
	if (mpg123_seek(m->mh, 0, SEEK_SET) < 0) {
		snprintf(err, errlen, "'%s': cannot seek to the start: %s", path,
		         mpg123_strerror(m->mh));
		goto fail;
	}
	return 0;

fail_lib:
	snprintf(err, errlen, "cannot start libmpg123: %s", mpg123_plain_strerror(ret));
	goto fail;
fail_fd:
	close(fd);
fail:
	vms_mp3_close(m);
	return -1;
}

long vms_mp3_read(struct vms_mp3 *m, unsigned char *buf, size_t cap)
{
	int empty_loops = 0, spins = 0;

	while (spins++ < 10000) {
		size_t done = 0;
		int ret = mpg123_read(m->mh, buf, cap, &done);

		if (done > 0)
			return (long)done;
		if (ret == MPG123_NEW_FORMAT || ret == MPG123_OK)
			continue;
		/* end of the file, or an error libmpg123 cannot resync past: loop */
		if (++empty_loops > 2 || mpg123_seek(m->mh, 0, SEEK_SET) < 0)
			return -1;
	}
	return -1;
}

void vms_mp3_close(struct vms_mp3 *m)
{
	if (m->mh) {
		mpg123_close(m->mh);
		mpg123_delete(m->mh);
		m->mh = NULL;
	}
	if (m->map) {
		munmap(m->map, m->len);
		m->map = NULL;
	}
}
