/* Shared helpers: messages, checked allocation, parsing of sizes, durations and procfs numbers,
 * clocks, and small file I/O (the one control-file writer) for procfs, sysfs and cgroupfs. */
#include "core/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char msg[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fflush(stdout);
	fprintf(stderr, "vmsuite: %s%s\n", prefix, msg);
}

int vms_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return -1;
}

int vms_error_ret(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return code;
}

void vms_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void vms_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("note: ", fmt, ap);
	va_end(ap);
}

static void *oom(size_t n)
{
	fprintf(stderr, "vmsuite: out of memory allocating %zu bytes\n", n);
	abort();
}

void *vms_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	return p ? p : oom(n);
}

void *vms_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	return p ? p : oom(nmemb * size);
}

void *vms_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	return q ? q : oom(n);
}

char *vms_xstrdup(const char *s)
{
	char *p = strdup(s);

	return p ? p : oom(strlen(s) + 1);
}

char *vms_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return oom(strlen(fmt));
	return s;
}

/* Decimal digits at *p as a 64-bit number; *p moves past all of them. Returns the count of
 * digits (0: none, *out untouched); *overflow is set when they do not fit 64 bits. */
static size_t scan_digits(const char **p, uint64_t *out, int *overflow)
{
	const char *q = *p;
	uint64_t v = 0;
	size_t n;

	*overflow = 0;
	for (; *q >= '0' && *q <= '9'; q++) {
		unsigned d = (unsigned)(*q - '0');

		if (v > (UINT64_MAX - d) / 10)
			*overflow = 1;
		else
			v = v * 10 + d;
	}
	if (q != *p)
		*out = v;
	n = (size_t)(q - *p);
	*p = q;
	return n;
}

/* The fraction digits of a size beyond 40 cannot change its byte count: 2^-40 has 40 decimal
 * places, so no multiple of 2^-shift lies strictly between a fraction cut after 40 digits and
 * the whole one. */
#define SIZE_FRAC_DIGITS 40

/* floor(0.DIGITS * 2^shift) for the first n (<= SIZE_FRAC_DIGITS) fraction digits, exactly:
 * each doubling of the decimal fraction carries out the next binary digit. */
static uint64_t size_frac_bits(const char *digits, size_t n, int shift)
{
	unsigned char d[SIZE_FRAC_DIGITS];
	uint64_t bits = 0;
	size_t i;
	int b;

	for (i = 0; i < n; i++)
		d[i] = (unsigned char)(digits[i] - '0');
	for (b = 0; b < shift; b++) {
		unsigned carry = 0;

		for (i = n; i-- > 0;) {
			unsigned v = d[i] * 2u + carry;

			d[i] = (unsigned char)(v % 10);
			carry = v / 10;
		}
		bits = bits << 1 | carry;
	}
	return bits;
}

int vms_parse_size(const char *s, uint64_t *out)
{
	const char *p = s, *frac = NULL;
	size_t nfrac = 0, i;
	uint64_t whole = 0, bits = 0, unused;
	int shift = 0, overflow, frac_overflow, nonzero = 0;

	if (!s || !scan_digits(&p, &whole, &overflow))
		return -EINVAL;
	if (*p == '.') {
		frac = ++p;
		nfrac = scan_digits(&p, &unused, &frac_overflow);
		if (!nfrac)
			return -EINVAL;
	}
	switch (*p) {
	case 'K':
	case 'k': shift = 10; break;
	case 'M':
	case 'm': shift = 20; break;
	case 'G':
	case 'g': shift = 30; break;
	case 'T':
	case 't': shift = 40; break;
	default: break;
	}
	if (shift) {
		p++;
		if (*p == 'i')
			p++;
		if (*p == 'B' || *p == 'b')
			p++;
	} else if (*p == 'B' || *p == 'b') {
		p++;
	}
	if (*p)
		return -EINVAL;
	for (i = 0; i < nfrac; i++)
		nonzero |= frac[i] != '0';
	if (nonzero && !shift)
		return -EINVAL; /* a fraction of a byte */
	if (overflow || whole > UINT64_MAX >> shift)
		return -ERANGE;
	if (nonzero)
		bits = size_frac_bits(frac, nfrac < SIZE_FRAC_DIGITS ? nfrac : SIZE_FRAC_DIGITS,
		                      shift);
	/* bits < 2^shift and the low shift bits of whole << shift are zero: no carry */
	*out = whole << shift | bits;
	return 0;
}

int vms_parse_decimal(const char *s, const char **end, double *out)
{
	const char *p = s;
	uint64_t whole = 0, num = 0;
	double den = 1;
	size_t n;
	int overflow = 0;

	if (!s)
		return -EINVAL;
	n = scan_digits(&p, &whole, &overflow);
	if (*p == '.') {
		/* the first 19 fraction digits (2^64 holds them); the rest must be digits */
		for (p++; *p >= '0' && *p <= '9'; p++, n++) {
			if (den < 1e19) {
				num = num * 10 + (unsigned)(*p - '0');
				den *= 10;
			}
		}
	}
	if (!n)
		return -EINVAL;
	if (end)
		*end = p;
	else if (*p)
		return -EINVAL;
	if (overflow)
		return -ERANGE;
	*out = (double)whole + (double)num / den;
	return 0;
}

int vms_parse_seconds(const char *s, double *out)
{
	static const struct {
		const char *unit;
		double scale;
	} units[] = {{"", 1}, {"s", 1}, {"ms", 0.001}, {"m", 60}, {"min", 60}, {"h", 3600}};
	const char *unit;
	double v;
	size_t i;
	int ret;

	ret = vms_parse_decimal(s, &unit, &v);
	if (ret == -EINVAL)
		return ret;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].unit))
			break;
	if (i == sizeof(units) / sizeof(units[0]))
		return -EINVAL;
	if (ret)
		return ret;
	*out = v * units[i].scale;
	return 0;
}

int vms_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	/* strtol alone would also take blanks, a '+' and (with base 0) hex */
	if (!s || !(isdigit((unsigned char)*s) || (*s == '-' && isdigit((unsigned char)s[1]))))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int vms_parse_u64(const char *s, const char **end, uint64_t *out)
{
	const char *p = s;
	uint64_t v = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "max", 3) && !isalnum((unsigned char)p[3]) && p[3] != '_') {
		v = UINT64_MAX;
		p += 3;
	} else if (isdigit((unsigned char)*p)) {
		for (; isdigit((unsigned char)*p); p++) {
			unsigned d = (unsigned)(*p - '0');

			if (v > (UINT64_MAX - d) / 10)
				return -ERANGE;
			v = v * 10 + d;
		}
	} else {
		return -EINVAL;
	}
	if (end) {
		*end = p;
	} else {
		while (isspace((unsigned char)*p))
			p++;
		if (*p)
			return -EINVAL;
	}
	*out = v;
	return 0;
}

const char *vms_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
	double v = (double)bytes;
	size_t u = 0;

	while (v >= 1024 && u + 1 < VMS_ARRAY_SIZE(units)) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%" PRIu64 " bytes", bytes);
	else if (v == floor(v))
		snprintf(buf, len, "%.0f %s", v, units[u]);
	else
		snprintf(buf, len, "%.1f %s", v, units[u]);
	return buf;
}

static double now(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double vms_now_mono(void)
{
	return now(CLOCK_MONOTONIC);
}

double vms_now_real(void)
{
	return now(CLOCK_REALTIME);
}

void vms_sleep(double seconds, volatile int *stop)
{
	struct timespec ts;

	if (seconds <= 0)
		return;
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		if (stop && *stop)
			return;
}

double vms_timeval_seconds(const struct timeval *t)
{
	return (double)t->tv_sec + (double)t->tv_usec / 1e6;
}

const char *vms_format_utc(double t, char *buf, size_t len)
{
	time_t secs = (time_t)t;
	struct tm tm;

	gmtime_r(&secs, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

char *vms_read_text(const char *path)
{
	size_t cap = 4096, len = 0;
	char *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	buf = vms_xmalloc(cap);
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			cap *= 2;
			buf = vms_xrealloc(buf, cap);
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

int vms_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ret = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		ret = ferror(f) ? -EIO : -ENODATA;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return ret;
}

ssize_t vms_read_small(const char *path, char *buf, size_t len)
{
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (got + 1 < len) {
		ssize_t n = read(fd, buf + got, len - 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (len)
		buf[got] = '\0';
	return (ssize_t)got;
}

int vms_read_u64(const char *path, uint64_t *out)
{
	char buf[64] = ""; /* zeroed: the analyzer cannot see that errno is set on failure */
	ssize_t n = vms_read_small(path, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return vms_parse_u64(buf, NULL, out);
}

int vms_write_text(const char *path, const char *text)
{
	size_t len = strlen(text);
	ssize_t n;
	int fd, e;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		n = write(fd, text, len);
	while (n < 0 && errno == EINTR);
	e = n < 0 ? errno : 0;
	if (close(fd) && !e)
		e = errno;
	if (e)
		return -e;
	return (size_t)n == len ? 0 : -EIO;
}

/* Moves tmp to path, failing with EEXIST when path exists: renameat2(RENAME_NOREPLACE), or a
 * hard link where the filesystem cannot do that. 0 or -errno. */
static int rename_noreplace(const char *tmp, const char *path)
{
	if (!renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
		return -errno;
	if (link(tmp, path))
		return -errno;
	unlink(tmp);
	return 0;
}

int vms_write_atomic(const char *path, const void *data, size_t len, int flags)
{
	char *tmp = vms_xasprintf("%s.tmp.%ld", path, (long)getpid());
	char *dir = vms_xstrdup(path);
	char *slash = strrchr(dir, '/');
	const char *p = data;
	struct stat st;
	int fd, dfd, ret = 0;

	if (slash == dir)
		dir[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		dir[0] = '.', dir[1] = '\0';

	/* rename() would replace a device node or a FIFO by a regular file */
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -ENOTSUP;
		goto out_free;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		goto out_free;
	}
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			goto out_unlink;
		}
		p += n;
		len -= (size_t)n;
	}
	if (fsync(fd) < 0) {
		ret = -errno;
		goto out_unlink;
	}
	if (close(fd) < 0) {
		fd = -1;
		ret = -errno;
		goto out_unlink;
	}
	fd = -1;
	if (flags & VMS_WRITE_NOREPLACE)
		ret = rename_noreplace(tmp, path);
	else if (rename(tmp, path) < 0)
		ret = -errno;
	if (ret)
		goto out_unlink;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	goto out_free;

out_unlink:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
out_free:
	free(dir);
	free(tmp);
	return ret;
}

int vms_stderr_is_tty(void)
{
	return isatty(STDERR_FILENO);
}

int vms_output_check(const char *what, const char *path, int force, const char *force_option)
{
	char *dir = vms_xstrdup(path), *slash = strrchr(dir, '/');
	const char *w = what ? what : "", *to = what ? " to " : "";
	struct stat st;
	int ret = 0;

	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			ret = vms_error_ret(-EISDIR, "cannot write %s%s'%s': it is a directory", w,
			                    to, path);
		else if (!S_ISREG(st.st_mode))
			ret =
			    vms_error_ret(-ENOTSUP,
			                  "cannot write %s%s'%s': not a regular file (vmsuite "
			                  "replaces its output file; give the name of a new file)",
			                  w, to, path);
		else if (!force)
			ret =
			    vms_error_ret(-EEXIST, "'%s' exists: not overwritten (%s replaces it)",
			                  path, force_option);
	} else if (errno != ENOENT) {
		ret = vms_error_ret(-errno, "cannot write %s%s'%s': %s", w, to, path,
		                    strerror(errno));
	}
	/* access(W_OK) says yes to root in /proc or an immutable directory: try a file */
	if (!ret && (ret = vms_dir_writable(slash ? dir : ".")))
		vms_error("cannot write %s%s'%s': %s", w, to, path, strerror(-ret));
	free(dir);
	return ret;
}

int vms_dir_writable(const char *dir)
{
	char *name = vms_xasprintf("%s/.vmsuite-try-XXXXXX", dir);
	int fd = mkstemp(name), ret = 0;

	if (fd < 0) {
		ret = -errno;
	} else {
		close(fd);
		unlink(name);
	}
	free(name);
	return ret;
}

size_t vms_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t d[3][64], *two, *prev, *row; /* rows i - 2, i - 1 and i of the matrix */

	if (la >= VMS_ARRAY_SIZE(d[0]) || lb >= VMS_ARRAY_SIZE(d[0]))
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		two = d[(i + 1) % 3], prev = d[(i - 1) % 3], row = d[i % 3];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t best = (prev[j] < row[j - 1] ? prev[j] : row[j - 1]) + 1;

			row[j] = sub < best ? sub : best;
			/* two neighbours swapped ("lable") are one edit */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    two[j - 2] + 1 < row[j])
				row[j] = two[j - 2] + 1;
		}
	}
	return d[la % 3][lb];
}

int vms_utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		unsigned c = *p, n, i;
		uint32_t cp;

		if (c < 0x80) {
			p++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			n = 1, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			n = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			n = 3, cp = c & 0x07;
		else
			return 0;
		for (i = 1; i <= n; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (p[i] & 0x3f);
		}
		if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		p += n + 1;
	}
	return 1;
}
