/* Shared helpers: error reporting in git style, checked allocation, size and duration
 * parsing, monotonic/real clocks and small file I/O. No kernel paths of their own. */
#ifndef VMS_UTIL_H
#define VMS_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/time.h>
#include <sys/types.h>

#define VMS_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Exit codes of every command (docs/vmsuite.1, EXIT STATUS), chosen for `git bisect run`:
 * 125 makes bisect skip the commit, 128 and above stop the bisection. */
enum vms_exit {
	VMS_EXIT_OK = 0,
	VMS_EXIT_FAILED = 1,  /* a workload failed, or compare found a regression */
	VMS_EXIT_SKIP = 125,  /* nothing could be measured here */
	VMS_EXIT_FATAL = 128, /* fatal tool error */
	VMS_EXIT_USAGE = 129, /* usage error */
	VMS_EXIT_INTERRUPTED = 130,
};

/* Prints "vmsuite: <message>" to stderr. Returns -1 so callers can `return vms_error(...)`. */
int vms_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* As vms_error(), but returns code: `return vms_error_ret(-EINVAL, "bad '%s'", s);` reports
 * the error and passes its code (a -errno or an exit code) up in one statement. */
int vms_error_ret(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints "vmsuite: warning: <message>" to stderr. */
void vms_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "vmsuite: note: <message>" to stderr. */
void vms_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Allocation for the tool's own bookkeeping: aborts with a message on out-of-memory.
 * Workload hot paths must not use these (their allocation failure is data). */
void *vms_xmalloc(size_t n);
void *vms_xcalloc(size_t nmemb, size_t size);
void *vms_xrealloc(void *p, size_t n);
char *vms_xstrdup(const char *s);
/* printf into a new string; caller frees. */
char *vms_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parses a size: decimal digits, an optional fraction (".5"; needs digits on both sides of
 * the point) and an optional K/M/G/T suffix (binary multiples, any case, optional trailing
 * "iB", "i" or "B"; a bare "B" means bytes): "4096", "256M", "1.5G", "512MiB". A fraction is
 * only taken with a suffix ("1.0" is 1, "1.5" is refused) and rounds down to whole bytes.
 * Exponents, hex, signs, blanks, inf and nan are malformed. Returns 0, or -EINVAL for
 * malformed text and -ERANGE for values that do not fit 64 bits; *out is set only on
 * success. Zero is accepted; callers check ranges. */
int vms_parse_size(const char *s, uint64_t *out);
/* Parses a non-negative decimal number: digits with an optional fraction ("2", "2.5", ".5",
 * "5."; at least one digit), no exponent, hex, sign, blank, inf or nan. With end NULL nothing
 * may follow; otherwise *end is set just past the number (also when it is too large) and the
 * caller checks what follows. Returns 0, -EINVAL (no number, or text after it) or -ERANGE (a
 * whole part beyond 64 bits); *out is set only on success and is finite. */
int vms_parse_decimal(const char *s, const char **end, double *out);
/* Parses a non-negative duration in seconds: decimal digits with an optional fraction ("10",
 * "2.5", ".5", "5."), then no unit, "s", "ms", "m"/"min" or "h" ("300ms", "2m"). Exponents,
 * hex, signs, blanks, inf and nan are malformed. Returns 0, -EINVAL (malformed) or -ERANGE
 * (a whole part beyond 64 bits); *out is set only on success and is always finite. */
int vms_parse_seconds(const char *s, double *out);
/* Parses a whole decimal number in [min, max]: an optional '-', then digits only (no blanks,
 * '+' or hex). 0, -EINVAL or -ERANGE. */
int vms_parse_long(const char *s, long min, long max, long *out);
/* Parses an unsigned decimal number as procfs, sysfs and cgroupfs files hold it: optional
 * leading blanks, then digits, or the word "max" (cgroup v2's "no limit"), which reads as
 * UINT64_MAX. With end NULL nothing but white space (the newline) may follow; otherwise *end
 * is set just past the number or word and the caller checks what follows. Returns 0, -EINVAL
 * (no digits, a sign, other text after it) or -ERANGE (more than 64 bits); *out is set only
 * on success. */
int vms_parse_u64(const char *s, const char **end, uint64_t *out);
/* Formats a byte count as "512 MiB"/"1.9 GiB" into buf. Returns buf. */
const char *vms_format_size(uint64_t bytes, char *buf, size_t len);

/* Seconds from CLOCK_MONOTONIC / CLOCK_REALTIME. */
double vms_now_mono(void);
double vms_now_real(void);
/* Sleeps for the given seconds, restarting on EINTR unless *stop becomes non-zero. */
void vms_sleep(double seconds, volatile int *stop);
/* Seconds of a timeval (an rusage's ru_utime, ru_stime). */
double vms_timeval_seconds(const struct timeval *t);
/* ISO 8601 UTC time "2026-11-30T18:10:09Z" of a CLOCK_REALTIME value, into buf. */
const char *vms_format_utc(double t, char *buf, size_t len);

/* Reads a whole small file (procfs, sysfs) into a new NUL-terminated string; caller frees.
 * Returns NULL with errno set on failure. */
char *vms_read_text(const char *path);
/* Reads the first line of a file into buf, without the newline. 0 or -errno. */
int vms_read_line(const char *path, char *buf, size_t len);
/* Reads at most len - 1 bytes of a small file into buf and NUL-terminates it, with
 * open/read/close only (no allocation: fit for samplers). Returns the bytes read or -errno. */
ssize_t vms_read_small(const char *path, char *buf, size_t len);
/* Reads a file holding one unsigned integer (vms_parse_u64() rules: "max" reads as
 * UINT64_MAX). Allocates nothing. 0, -errno from reading, -EINVAL or -ERANGE. */
int vms_read_u64(const char *path, uint64_t *out);
/* Writes text to a control file (procfs, sysfs or cgroupfs knob) as `echo -n text > path`
 * does: open with O_TRUNC (harmless there; makes a plain file in a test tree hold just text),
 * one write(2), close(2). Both the write and the close are checked, since the kernel may
 * reject a value at either; a short write is -EIO. Only open/write/close: async-signal-safe,
 * usable between fork() and exec(). 0 or -errno; reports nothing. */
int vms_write_text(const char *path, const char *text);
/* Flags of vms_write_atomic(). */
enum {
	VMS_WRITE_NOREPLACE = 1 << 0, /* fail with -EEXIST when path exists (checked atomically) */
};
/* Writes data to path atomically: temp file in the same directory, fsync, rename, fsync of
 * the directory; flags 0 or VMS_WRITE_NOREPLACE. On failure nothing is left behind. A
 * destination that exists and is not a regular file (a device node, a FIFO, a directory) is
 * never replaced: -ENOTSUP (-EISDIR for a directory), nothing written. 0 or -errno; reports
 * nothing. */
int vms_write_atomic(const char *path, const void *data, size_t len, int flags);

/* Checks an output file named by -o before anything runs: it must not be a directory or another
 * file that is not a regular file (device node, FIFO: vmsuite would replace it), must not
 * exist unless force (reported with a hint naming force_option, e.g. "--force"), and its
 * directory must take a new file (vms_dir_writable()). Returns 0, or -errno after reporting
 * the reason once ("cannot write 'x': ...", or "cannot write <what> to 'x': ..." when what is
 * not NULL). */
int vms_output_check(const char *what, const char *path, int force, const char *force_option);

/* Whether this process can create files in dir, found by creating one (a hidden, randomly
 * named file, removed at once): 0, or the -errno of the attempt (-ENOTDIR, -EROFS, -EPERM for
 * an immutable directory, ...). Reports nothing. */
int vms_dir_writable(const char *dir);

/* True when s is valid UTF-8 (what JSON strings hold; no overlong forms, no surrogates, nothing
 * above U+10FFFF). */
int vms_utf8_valid(const char *s);

/* The edit distance between a and b, for "did you mean": insertions, deletions, substitutions
 * and swaps of two neighbours count one each (optimal string alignment); names of 64 bytes or
 * more count as far from everything (SIZE_MAX). */
size_t vms_edit_distance(const char *a, const char *b);

/* True when stderr is a terminal (progress then rewrites a live line). */
int vms_stderr_is_tty(void);

#include "core/banned.h"
#endif
