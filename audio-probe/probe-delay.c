/* The player's own delay accounting: the per-task delay totals Linux keeps when
 * kernel.task_delayacct is on (run-queue, block I/O, swap-in, direct reclaim, thrashing,
 * compaction), read over generic netlink with TASKSTATS_CMD_GET for one thread id. A small
 * genetlink client of its own (one family lookup, then one request and one reply per read into
 * a preallocated buffer): nothing is allocated after vms_delay_open(). Kernel paths: taskstats,
 * delayacct, genetlink. */
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "audio-probe/probe-internal.h"
#include "core/util.h"

#define NLA_DATA(a)    ((void *)((char *)(a) + NLA_HDRLEN))
#define NLA_PAYLOAD(a) ((size_t)((a)->nla_len) - NLA_HDRLEN)

/* Appends attribute `type` with `len` bytes of data to the message in buf. */
static void put_attr(struct nlmsghdr *n, unsigned short type, const void *data, size_t len)
{
	struct nlattr *a = (struct nlattr *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));

	a->nla_type = type;
	a->nla_len = (unsigned short)(NLA_HDRLEN + len);
	memcpy(NLA_DATA(a), data, len);
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + NLA_ALIGN(a->nla_len);
}

/* Sends one genetlink request and receives its reply into d->buf. Returns the reply's
 * length, or -errno (a netlink error reply gives its errno). */
static long transact(struct vms_delay *d, unsigned short family, unsigned char cmd,
                     unsigned short attr, const void *data, size_t len)
{
	struct {
		struct nlmsghdr n;
		struct genlmsghdr g;
		char attrs[64];
	} req;
	struct sockaddr_nl to = {.nl_family = AF_NETLINK};
	const struct nlmsghdr *r;
	ssize_t got;

	memset(&req, 0, sizeof(req));
	req.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	req.n.nlmsg_type = family;
	req.n.nlmsg_flags = NLM_F_REQUEST;
	req.n.nlmsg_seq = ++d->seq;
	req.g.cmd = cmd;
	req.g.version = 1;
	put_attr(&req.n, attr, data, len);
	if (sendto(d->fd, &req, req.n.nlmsg_len, 0, (struct sockaddr *)&to, sizeof(to)) < 0)
		return -errno;
	for (;;) {
		got = recv(d->fd, d->buf, sizeof(d->buf), 0);
		if (got < 0)
			return errno == EINTR ? -EINTR : -errno;
		r = (const struct nlmsghdr *)d->buf;
		if ((size_t)got < sizeof(*r) || !NLMSG_OK(r, (unsigned)got))
			return -EBADMSG;
		if (r->nlmsg_seq != d->seq)
			continue; /* a late reply to an earlier request that timed out */
		if (r->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(r);

			return e->error ? e->error : -EBADMSG;
		}
		return (long)got;
	}
}

/* The first attribute of type `type` among the attributes in [p, p + len), or NULL. */
static const struct nlattr *find_attr(const void *p, size_t len, unsigned short type)
{
	const char *c = p;

	while (len >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)c;
		size_t step;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > len)
			return NULL;
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
		step = NLA_ALIGN(a->nla_len);
		if (step >= len)
			return NULL;
		c += step;
		len -= step;
	}
	return NULL;
}

/* The attributes of a genetlink reply in d->buf of length n. */
static const void *reply_attrs(const struct vms_delay *d, long n, size_t *len)
{
	const struct nlmsghdr *r = (const struct nlmsghdr *)d->buf;
	size_t head = NLMSG_LENGTH(GENL_HDRLEN);

	if ((size_t)n < head || r->nlmsg_len < head || r->nlmsg_len > (size_t)n)
		return NULL;
	*len = r->nlmsg_len - head;
	return d->buf + head;
}

int vms_delay_open(struct vms_delay *d, char *err, size_t errlen)
{
	struct sockaddr_nl me = {.nl_family = AF_NETLINK};
	struct timeval tv = {.tv_sec = 0, .tv_usec = 200000};
	const struct nlattr *a;
	const void *attrs;
	size_t len;
	long n;
	char on[16];

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	if (vms_read_line("/proc/sys/kernel/task_delayacct", on, sizeof(on)) != 0) {
		snprintf(err, errlen,
		         "this kernel has no delay accounting (no kernel.task_delayacct)");
		return -ENOENT;
	}
	if (strcmp(on, "1") != 0) {
		snprintf(err, errlen, "kernel.task_delayacct is off");
		return -ENODATA;
	}
	d->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (d->fd < 0 || bind(d->fd, (struct sockaddr *)&me, sizeof(me)) < 0) {
		snprintf(err, errlen, "no generic netlink socket: %s", strerror(errno));
		vms_delay_close(d);
		return -errno;
	}
	/* a reply that never comes must not hang the player */
	setsockopt(d->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	n = transact(d, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME,
	             TASKSTATS_GENL_NAME, sizeof(TASKSTATS_GENL_NAME));
	attrs = n > 0 ? reply_attrs(d, n, &len) : NULL;
	a = attrs ? find_attr(attrs, len, CTRL_ATTR_FAMILY_ID) : NULL;
	if (!a || NLA_PAYLOAD(a) < sizeof(unsigned short)) {
		snprintf(err, errlen, "the kernel has no taskstats netlink family (%s)",
		         n < 0 ? strerror((int)-n) : "no family id");
		vms_delay_close(d);
		return n < 0 ? (int)n : -ENOENT;
	}
	memcpy(&d->family, NLA_DATA(a), sizeof(d->family));
	/* one read now: it needs CAP_NET_ADMIN (GENL_ADMIN_PERM) */
	{
		struct vms_delays t;
		int ret = vms_delay_read(d, getpid(), &t);

		if (ret) {
			snprintf(err, errlen, "taskstats refused: %s%s", strerror(-ret),
			         ret == -EPERM ? " (needs root or CAP_NET_ADMIN)" : "");
			vms_delay_close(d);
			return ret;
		}
		d->version = t.version;
	}
	return 0;
}

int vms_delay_read(struct vms_delay *d, pid_t tid, struct vms_delays *out)
{
	struct taskstats ts;
	const struct nlattr *aggr, *st;
	const void *attrs;
	size_t len;
	__u32 pid = (__u32)tid;
	long n;

	n = transact(d, d->family, TASKSTATS_CMD_GET, TASKSTATS_CMD_ATTR_PID, &pid, sizeof(pid));
	if (n < 0)
		return (int)n;
	attrs = reply_attrs(d, n, &len);
	aggr = attrs ? find_attr(attrs, len, TASKSTATS_TYPE_AGGR_PID) : NULL;
	st = aggr ? find_attr(NLA_DATA(aggr), NLA_PAYLOAD(aggr), TASKSTATS_TYPE_STATS) : NULL;
	if (!st)
		return -EBADMSG;
	/* an older kernel sends a shorter struct: what it lacks reads as zero */
	memset(&ts, 0, sizeof(ts));
	memcpy(&ts, NLA_DATA(st), NLA_PAYLOAD(st) < sizeof(ts) ? NLA_PAYLOAD(st) : sizeof(ts));
	out->version = ts.version;
	out->runq_s = (double)ts.cpu_delay_total / 1e9;
	out->io_s = (double)ts.blkio_delay_total / 1e9;
	out->swapin_s = (double)ts.swapin_delay_total / 1e9;
	out->reclaim_s = (double)ts.freepages_delay_total / 1e9;
	/* thrashing since taskstats version 9 (Linux 5.0), compaction since 11 (5.19) */
	out->thrashing_s = ts.version >= 9 ? (double)ts.thrashing_delay_total / 1e9 : 0;
	out->compaction_s = ts.version >= 11 ? (double)ts.compact_delay_total / 1e9 : 0;
	return 0;
}

void vms_delay_close(struct vms_delay *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}
