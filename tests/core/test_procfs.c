/* Unit tests of core/procfs.c on fixed /proc-style files, plus a sanity read of the real ones. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/procfs.h"
#include "core/util.h"

static char *write_tmp(const char *content)
{
	char *path = vms_xstrdup("/tmp/vms-procfs-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, strlen(content)), (ssize_t)strlen(content));
	close(fd);
	return path;
}

static void test_vmstat_delta(void **state)
{
	char *a = write_tmp("nr_free_pages 100\npgfault 10\npgmajfault 1\npgscan_kswapd 5\n"
	                    "pswpout 0\nnr_dirty 3\nunrelated 7\nzswpout 2\n");
	char *b = write_tmp("nr_free_pages 50\npgfault 110\npgmajfault 4\npgscan_kswapd 25\n"
	                    "pswpout 8\nnr_dirty 9\nunrelated 70\noom_kill 1\nzswpout 12\n");
	struct vms_vmstat *sa = malloc(sizeof(*sa)), *sb = malloc(sizeof(*sb));
	json_t *d;

	(void)state;
	assert_int_equal(vms_vmstat_read(sa, a), 0);
	assert_int_equal(vms_vmstat_read(sb, b), 0);
	assert_int_equal(vms_vmstat_get(sb, "pgfault"), 110);
	assert_int_equal(vms_vmstat_get(sb, "absent"), 0);
	d = vms_vmstat_delta_json(sa, sb);
	assert_int_equal(json_integer_value(json_object_get(d, "pgfault")), 100);
	assert_int_equal(json_integer_value(json_object_get(d, "pgmajfault")), 3);
	assert_int_equal(json_integer_value(json_object_get(d, "pgscan_kswapd")), 20);
	assert_int_equal(json_integer_value(json_object_get(d, "pswpout")), 8);
	assert_int_equal(json_integer_value(json_object_get(d, "oom_kill")), 1);
	assert_int_equal(json_integer_value(json_object_get(d, "zswpout")), 10);
	assert_null(json_object_get(d, "unrelated"));
	assert_null(json_object_get(d, "nr_dirty")); /* a gauge, not a counter */
	json_decref(d);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
	free(sa);
	free(sb);
}

static void test_psi_file(void **state)
{
	char *p = write_tmp("some avg10=0.00 avg60=0.00 avg300=0.00 total=12345\n"
	                    "full avg10=0.00 avg60=0.00 avg300=0.00 total=678\n");
	uint64_t some, full;

	(void)state;
	assert_int_equal(vms_psi_read_file(p, &some, &full), 0);
	assert_int_equal(some, 12345);
	assert_int_equal(full, 678);
	assert_int_equal(vms_psi_read_file("/nonexistent", &some, &full) < 0, 1);
	unlink(p);
	free(p);
}

static void test_meminfo(void **state)
{
	char *p = write_tmp("MemTotal:       24000000 kB\nMemFree:        1000 kB\n"
	                    "Dirty:             12 kB\nSwapTotal:         0 kB\n");
	struct vms_meminfo m;

	(void)state;
	assert_int_equal(vms_meminfo_read(&m, p), 0);
	assert_int_equal(m.mem_total, 24000000ULL * 1024);
	assert_int_equal(m.mem_free, 1000 * 1024);
	assert_int_equal(m.dirty, 12 * 1024);
	unlink(p);
	free(p);
	/* the real files of this machine parse */
	assert_int_equal(vms_meminfo_read(&m, NULL), 0);
	assert_true(m.mem_total > 0);
}

/* ---- /proc/self/mountinfo ---- */

static void test_mountinfo_line(void **state)
{
	struct vms_mountinfo_entry e;
	char line[512];

	(void)state;
	/* the proc(5) example: one optional field, a trailing newline */
	snprintf(
	    line, sizeof(line), "%s",
	    "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n");
	assert_int_equal(vms_mountinfo_parse_line(line, &e), 0);
	assert_int_equal(e.mount_id, 36);
	assert_int_equal(e.parent_id, 35);
	assert_int_equal(e.major, 98);
	assert_int_equal(e.minor, 0);
	assert_string_equal(e.root, "/mnt1");
	assert_string_equal(e.mount_point, "/mnt2");
	assert_string_equal(e.options, "rw,noatime");
	assert_string_equal(e.fstype, "ext3");
	assert_string_equal(e.source, "/dev/root");
	assert_string_equal(e.super_options, "rw,errors=continue");

	/* escaped blanks, tab and backslash in paths; several optional fields; no newline */
	snprintf(line, sizeof(line), "%s",
	         "40 27 8:17 /a\\134b /mnt/my\\040disk\\011x rw shared:7 master:2 propagate_from:3 "
	         "- fuse.sshfs me@host:/my\\040dir rw,user_id=0");
	assert_int_equal(vms_mountinfo_parse_line(line, &e), 0);
	assert_string_equal(e.root, "/a\\b");
	assert_string_equal(e.mount_point, "/mnt/my disk\tx");
	assert_string_equal(e.fstype, "fuse.sshfs");
	assert_string_equal(e.source, "me@host:/my dir");
	assert_string_equal(e.super_options, "rw,user_id=0");

	/* no optional fields, no super options */
	snprintf(line, sizeof(line), "%s", "43 27 0:51 /sub /srv/bind ro - ext4 /dev/vdb\n");
	assert_int_equal(vms_mountinfo_parse_line(line, &e), 0);
	assert_string_equal(e.mount_point, "/srv/bind");
	assert_string_equal(e.source, "/dev/vdb");
	assert_string_equal(e.super_options, "");

	/* not mountinfo */
	snprintf(line, sizeof(line), "%s", "this line is not mountinfo\n");
	assert_int_equal(vms_mountinfo_parse_line(line, &e), -EINVAL);
	snprintf(line, sizeof(line), "%s", "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1\n");
	assert_int_equal(vms_mountinfo_parse_line(line, &e), -EINVAL); /* no separator */
	snprintf(line, sizeof(line), "%s", "36 35 98:0 /mnt1 /mnt2 rw - ext3\n");
	assert_int_equal(vms_mountinfo_parse_line(line, &e), -EINVAL); /* no source */
	snprintf(line, sizeof(line), "%s", "36 35 98 / /mnt rw - ext3 /dev/root rw\n");
	assert_int_equal(vms_mountinfo_parse_line(line, &e), -EINVAL); /* no major:minor */
	snprintf(line, sizeof(line), "%s", "");
	assert_int_equal(vms_mountinfo_parse_line(line, &e), -EINVAL);
}

static void test_mountinfo_iterate(void **state)
{
	char *path =
	    write_tmp("22 27 0:21 / /proc rw,relatime - proc proc rw\n"
	              "garbage\n"
	              "\n"
	              "35 31 0:32 / /sys/fs/cgroup/memory rw shared:9 - cgroup cgroup "
	              "rw,memory\n"
	              "41 31 0:38 / /sys/fs/cgroup/my\\040unified rw - cgroup2 cgroup2 rw");
	const struct vms_mountinfo_entry *e;
	struct vms_mountinfo mi;

	(void)state;
	assert_int_equal(vms_mountinfo_open(&mi, path), 0);
	e = vms_mountinfo_next(&mi);
	assert_non_null(e);
	assert_string_equal(e->mount_point, "/proc");
	e = vms_mountinfo_next(&mi); /* the two bad lines are skipped */
	assert_non_null(e);
	assert_string_equal(e->fstype, "cgroup");
	assert_string_equal(e->super_options, "rw,memory");
	e = vms_mountinfo_next(&mi);
	assert_non_null(e);
	assert_int_equal(e->mount_id, 41);
	assert_string_equal(e->mount_point, "/sys/fs/cgroup/my unified");
	assert_null(vms_mountinfo_next(&mi));
	assert_null(vms_mountinfo_next(&mi));
	vms_mountinfo_release(&mi);
	vms_mountinfo_release(&mi); /* twice is fine */
	unlink(path);
	assert_int_equal(vms_mountinfo_open(&mi, path), -ENOENT);
	assert_null(vms_mountinfo_next(&mi));
	vms_mountinfo_release(&mi);
	free(path);

	/* the real table of this process parses and has a root mount */
	assert_int_equal(vms_mountinfo_open(&mi, NULL), 0);
	{
		int root = 0;

		while ((e = vms_mountinfo_next(&mi)))
			root |= !strcmp(e->mount_point, "/");
		assert_true(root);
	}
	vms_mountinfo_release(&mi);
}

/* ---- /proc/self/cgroup ---- */

static void test_proc_cgroup(void **state)
{
	struct vms_proc_cgroup pc;
	char *path;

	(void)state;
	/* pure v2 */
	vms_proc_cgroup_parse(&pc, "0::/user.slice/user-1000.slice/session-2.scope\n");
	assert_string_equal(pc.v2_path, "/user.slice/user-1000.slice/session-2.scope");
	assert_null(pc.v1_memory_path);
	assert_null(pc.v1_first_path);
	assert_false(pc.have_v1);
	vms_proc_cgroup_release(&pc);

	/* pure v1, memory sharing a hierarchy with another controller */
	vms_proc_cgroup_parse(&pc, "5:pids:/p\n4:cpu,memory:/user.slice\n1:name=systemd:/\n");
	assert_null(pc.v2_path);
	assert_true(pc.have_v1);
	assert_string_equal(pc.v1_memory_path, "/user.slice");
	assert_string_equal(pc.v1_first_path, "/p");
	vms_proc_cgroup_release(&pc);

	/* hybrid (systemd's default before v2-only): both kinds, no trailing newline */
	vms_proc_cgroup_parse(&pc, "9:name=systemd:/\n8:pids:/\n4:memory:/user.slice\n0::/");
	assert_true(pc.have_v1);
	assert_string_equal(pc.v1_memory_path, "/user.slice");
	assert_string_equal(pc.v2_path, "/");
	vms_proc_cgroup_release(&pc);

	/* a named hierarchy alone is not a v1 controller; "memory" must be a whole word */
	vms_proc_cgroup_parse(&pc, "1:name=systemd:/s\n2:memory_x,name=memory:/m\n0::/u\n");
	assert_null(pc.v1_memory_path);
	assert_true(pc.have_v1); /* memory_x is some controller */
	assert_string_equal(pc.v1_first_path, "/m");
	assert_string_equal(pc.v2_path, "/u");
	vms_proc_cgroup_release(&pc);
	vms_proc_cgroup_parse(&pc, "1:name=systemd:/s\n0::/u\n");
	assert_false(pc.have_v1);
	assert_null(pc.v1_first_path);
	vms_proc_cgroup_release(&pc);

	/* malformed lines are skipped: the v2 line needs id 0 and no controllers */
	vms_proc_cgroup_parse(&pc, "garbage\n:memory:/x\nx:memory:/y\n3::/z\n0:cpu:/w\n"
	                           "0::/ok:with:colons\n");
	assert_null(pc.v1_memory_path);
	assert_string_equal(pc.v2_path, "/ok:with:colons");
	vms_proc_cgroup_release(&pc);

	/* empty */
	vms_proc_cgroup_parse(&pc, "");
	assert_null(pc.v2_path);
	assert_false(pc.have_v1);
	vms_proc_cgroup_release(&pc);

	/* from a file, and this process's own (v1, v2 or both, but something) */
	path = write_tmp("4:memory:/a b\n0::/\n");
	assert_int_equal(vms_proc_cgroup_read(&pc, path), 0);
	assert_string_equal(pc.v1_memory_path, "/a b");
	vms_proc_cgroup_release(&pc);
	unlink(path);
	assert_int_equal(vms_proc_cgroup_read(&pc, path), -ENOENT);
	assert_null(pc.v2_path);
	free(path);
	assert_int_equal(vms_proc_cgroup_read(&pc, NULL), 0);
	assert_true(pc.v2_path || pc.have_v1);
	vms_proc_cgroup_release(&pc);
}

static void test_cpustat(void **state)
{
	/* user nice system idle iowait irq softirq steal guest guest_nice */
	const char *text = "cpu  100 10 50 1000 5 1 2 7 0 0\n"
	                   "cpu0 40 4 20 500 2 0 1 3 0 0\n"
	                   "cpu1 60 6 30 500 3 1 1 4 0 0\n"
	                   "cpu12 9 0 0 1 0 0 0 0 0 0\n"
	                   "intr 249322 0 0\nctxt 1\n";
	struct vms_cpustat c;
	cpu_set_t set;

	(void)state;
	CPU_ZERO(&set);
	CPU_SET(1, &set);
	assert_int_equal(vms_cpustat_parse(text, &set, &c), 0);
	assert_int_equal(c.cpus, 1);
	assert_int_equal(c.user, 66);   /* user + nice */
	assert_int_equal(c.system, 32); /* system + irq + softirq */
	assert_int_equal(c.idle, 500);
	assert_int_equal(c.iowait, 3);
	assert_int_equal(c.steal, 4);
	assert_int_equal(c.irq, 2);
	/* "cpu1" must not match "cpu12", nor the total line any CPU */
	CPU_SET(12, &set);
	assert_int_equal(vms_cpustat_parse(text, &set, &c), 0);
	assert_int_equal(c.cpus, 2);
	assert_int_equal(c.user, 75);
	assert_int_equal(vms_cpustat_parse(text, NULL, &c), 0);
	assert_int_equal(c.cpus, 3);
	assert_int_equal(c.user, 119);
	CPU_ZERO(&set);
	CPU_SET(5, &set);
	assert_int_equal(vms_cpustat_parse(text, &set, &c), -ENOENT);
	assert_int_equal(vms_cpustat_parse("", NULL, &c), -ENOENT);
	/* an old kernel without steal */
	assert_int_equal(vms_cpustat_parse("cpu0 1 2 3 4\n", NULL, &c), 0);
	assert_int_equal(c.user, 3);
	assert_int_equal(c.steal, 0);
	/* the real file lists at least one CPU */
	assert_int_equal(vms_cpustat_read(NULL, NULL, &c), 0);
	assert_true(c.cpus >= 1);
}

static void test_pid_stat(void **state)
{
	struct vms_pid_stat s;
	char line[512];
	FILE *f;

	(void)state;
	/* a name with spaces and a ')' in it; tpgid -1 */
	assert_int_equal(
	    vms_pid_stat_parse("4242 (my (odd) name) R 17 4242 17 0 -1 4194304 99 0 0 0 123 45 6 "
	                       "7 20 0 1 0 326188 3133440 410 18446744073709551615 1 2 3 0 0 0 0 "
	                       "0 0 0 0 0 17 1 0 0 0 0 0\n",
	                       &s),
	    0);
	assert_int_equal(s.pid, 4242);
	assert_string_equal(s.comm, "my (odd) name");
	assert_int_equal(s.state, 'R');
	assert_int_equal(s.ppid, 17);
	assert_int_equal(s.flags, 4194304);
	assert_false(s.flags & VMS_PF_KTHREAD);
	assert_int_equal(s.utime, 123);
	assert_int_equal(s.stime, 45);
	assert_int_equal(s.cutime, 6);
	assert_int_equal(s.cstime, 7);
	assert_int_equal(s.starttime, 326188);
	assert_int_equal(s.processor, 1);
	/* a kernel thread, cut short before the processor field */
	assert_int_equal(vms_pid_stat_parse("73 (kswapd0) S 2 0 0 0 -1 2129984 0 0 0 0 0 59 0 0 20 "
	                                    "0 1 0 120",
	                                    &s),
	                 0);
	assert_true(s.flags & VMS_PF_KTHREAD);
	assert_int_equal(s.stime, 59);
	assert_int_equal(s.processor, -1);
	assert_int_equal(vms_pid_stat_parse("", &s), -EINVAL);
	assert_int_equal(vms_pid_stat_parse("12 (x) S 1 2 3", &s), -EINVAL);
	assert_int_equal(
	    vms_pid_stat_parse("x (y) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19", &s),
	    -EINVAL);
	assert_int_equal(vms_pid_stat_parse("12 (never closed S 1", &s), -EINVAL);
	/* this process */
	f = fopen("/proc/self/stat", "re");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	assert_int_equal(vms_pid_stat_parse(line, &s), 0);
	assert_int_equal(s.pid, getpid());
	assert_int_equal(s.ppid, getppid());
}

static void test_schedstat(void **state)
{
	uint64_t run, wait;

	(void)state;
	assert_int_equal(vms_schedstat_parse("166001149 211401241 53\n", &run, &wait), 0);
	assert_int_equal(run, 166001149);
	assert_int_equal(wait, 211401241);
	assert_int_equal(vms_schedstat_parse("12\n", &run, &wait), -EINVAL);
	assert_int_equal(vms_schedstat_parse("", &run, &wait), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_vmstat_delta),      cmocka_unit_test(test_psi_file),
	    cmocka_unit_test(test_meminfo),           cmocka_unit_test(test_mountinfo_line),
	    cmocka_unit_test(test_mountinfo_iterate), cmocka_unit_test(test_proc_cgroup),
	    cmocka_unit_test(test_cpustat),           cmocka_unit_test(test_pid_stat),
	    cmocka_unit_test(test_schedstat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
