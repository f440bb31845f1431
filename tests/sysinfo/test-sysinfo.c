/* Unit tests of core/sysinfo.c: the /proc/swaps, THP, mountinfo and cgroup parsers against a
 * fake /proc and /sys tree, the text listing, and the fingerprint of the real machine. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/fsinfo.h"
#include "core/procfs.h"
#include "core/sysinfo.h"
#include "core/util.h"

/* ---- fake tree helpers ---- */

static void mkdirs(const char *root, const char *rel)
{
	char *p = vms_xasprintf("%s/%s", root, rel), *s;

	for (s = p + strlen(root) + 1; *s; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	}
	mkdir(p, 0755);
	free(p);
}

static void put_file(const char *root, const char *rel, const char *content)
{
	char *p = vms_xasprintf("%s/%s", root, rel);
	char *dir = vms_xstrdup(rel), *slash = strrchr(dir, '/');
	FILE *f;

	if (slash) {
		*slash = '\0';
		mkdirs(root, dir);
	}
	free(dir);
	f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(fputs(content, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	free(p);
}

/* A fresh fake root per test, in *state (cmocka setup); the teardown removes it, and cmocka
 * runs the teardown after a failed assertion too, so no /tmp/vms-sysinfo-test-* is left. */
static int root_setup(void **state)
{
	char *tmpl = vms_xstrdup("/tmp/vms-sysinfo-test-XXXXXX");

	if (!mkdtemp(tmpl)) {
		free(tmpl);
		return -1;
	}
	*state = tmpl;
	return 0;
}

static int remove_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return type == FTW_DP || type == FTW_DNR ? rmdir(path) : unlink(path);
}

static int root_teardown(void **state)
{
	char *root = *state;
	int ret = nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);

	free(root);
	*state = NULL;
	return ret ? -1 : 0;
}

static const json_t *value_of(const json_t *info, const char *key)
{
	const json_t *e = json_object_get(info, key);

	assert_non_null(e);
	assert_non_null(json_object_get(e, "value"));
	return json_object_get(e, "value");
}

static const char *source_of(const json_t *info, const char *key)
{
	const json_t *e = json_object_get(info, key);

	assert_non_null(e);
	assert_true(json_is_string(json_object_get(e, "source")));
	return json_string_value(json_object_get(e, "source"));
}

/* ---- parsers ---- */

static void test_unescape_octal(void **state)
{
	char s[64];

	(void)state;
	snprintf(s, sizeof(s), "%s", "/mnt/my\\040disk\\011x\\134y\\012");
	assert_ptr_equal(vms_unescape_octal_inplace(s), s);
	assert_string_equal(s, "/mnt/my disk\tx\\y\n");
	snprintf(s, sizeof(s), "%s", "a\\9b\\04");
	assert_string_equal(vms_unescape_octal_inplace(s), "a\\9b\\04"); /* not a full escape */
}

static void test_sysfs_selection(void **state)
{
	char buf[32], tiny[4];

	(void)state;
	assert_int_equal(vms_sysfs_selection("always [madvise] never\n", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "madvise");
	assert_int_equal(vms_sysfs_selection("[always] madvise never", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "always");
	assert_int_equal(
	    vms_sysfs_selection("always defer [defer+madvise] madvise never", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "defer+madvise");
	assert_int_equal(vms_sysfs_selection("always madvise never", buf, sizeof(buf)), -ENODATA);
	assert_int_equal(vms_sysfs_selection("always [] never", buf, sizeof(buf)), -ENODATA);
	assert_int_equal(vms_sysfs_selection("[always", buf, sizeof(buf)), -ENODATA);
	assert_int_equal(vms_sysfs_selection("[madvise]", tiny, sizeof(tiny)), -ERANGE);
}

static void test_swaps_parse(void **state)
{
	const char *text =
	    "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
	    "/dev/sda2                               partition\t2097148\t\t1024\t\t-2\n"
	    "/var/swap\\040file\t\t\t\tfile\t\t524284\t\t0\t\t5\n"
	    "garbage line\n";
	json_t *a = vms_swaps_parse(text), *d;

	(void)state;
	assert_int_equal(json_array_size(a), 2);
	d = json_array_get(a, 0);
	assert_string_equal(json_string_value(json_object_get(d, "name")), "/dev/sda2");
	assert_string_equal(json_string_value(json_object_get(d, "type")), "partition");
	assert_int_equal(json_integer_value(json_object_get(d, "size_bytes")), 2097148LL * 1024);
	assert_int_equal(json_integer_value(json_object_get(d, "used_bytes")), 1024LL * 1024);
	assert_int_equal(json_integer_value(json_object_get(d, "priority")), -2);
	d = json_array_get(a, 1);
	assert_string_equal(json_string_value(json_object_get(d, "name")), "/var/swap file");
	assert_string_equal(json_string_value(json_object_get(d, "type")), "file");
	assert_int_equal(json_integer_value(json_object_get(d, "priority")), 5);
	json_decref(a);

	a = vms_swaps_parse("Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	assert_true(json_is_array(a));
	assert_int_equal(json_array_size(a), 0);
	json_decref(a);
	a = vms_swaps_parse("");
	assert_int_equal(json_array_size(a), 0);
	json_decref(a);

	/* malformed numbers are skipped, not half-read; names of any length survive */
	{
		char *longname = vms_xmalloc(5001), *t;

		memset(longname, 'x', 5000);
		longname[0] = '/';
		longname[5000] = '\0';
		t = vms_xasprintf("Filename Type Size Used Priority\n"
		                  "/dev/a partition -5 0 1\n"
		                  "/dev/b partition 12k 0 1\n"
		                  "/dev/c partition 8 0\n"
		                  "%s file 8 4 -1\n",
		                  longname);
		a = vms_swaps_parse(t);
		assert_int_equal(json_array_size(a), 1);
		d = json_array_get(a, 0);
		assert_string_equal(json_string_value(json_object_get(d, "name")), longname);
		assert_int_equal(json_integer_value(json_object_get(d, "size_bytes")), 8192);
		assert_int_equal(json_integer_value(json_object_get(d, "used_bytes")), 4096);
		assert_int_equal(json_integer_value(json_object_get(d, "priority")), -1);
		json_decref(a);
		free(t);
		free(longname);
	}
}

static const char fake_mountinfo[] =
    "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
    "27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,discard\n"
    "40 27 8:17 / /mnt/my\\040disk rw,noatime shared:7 master:2 - xfs /dev/disk\\040a rw,attr2\n"
    "41 27 8:18 / /mnt/my rw,nosuid - btrfs /dev/sdb1 rw,ssd,subvol=/\n"
    "42 41 0:50 / /mnt/my rw - tmpfs tmpfs rw,size=1024k\n"
    "43 27 0:51 /sub /srv/bind ro - ext4 /dev/vdb\n"
    "this line is not mountinfo\n";

static void test_mountinfo_find(void **state)
{
	const char *root = *state;
	char *path;
	struct vms_mount m;

	put_file(root, "proc/self/mountinfo", fake_mountinfo);
	path = vms_xasprintf("%s/proc/self/mountinfo", root);

	/* escaped mount point and device, optional fields skipped */
	assert_int_equal(vms_mountinfo_find(path, "/mnt/my disk/sub/file", &m), 0);
	assert_string_equal(m.mount_point, "/mnt/my disk");
	assert_string_equal(m.fstype, "xfs");
	assert_string_equal(m.device, "/dev/disk a");
	assert_string_equal(m.options, "rw,noatime");
	assert_string_equal(m.super_options, "rw,attr2");
	assert_int_equal(m.major, 8);
	assert_int_equal(m.minor, 17);
	vms_mount_release(&m);

	/* the mount point itself */
	assert_int_equal(vms_mountinfo_find(path, "/mnt/my disk", &m), 0);
	assert_string_equal(m.mount_point, "/mnt/my disk");
	vms_mount_release(&m);

	/* a prefix of a name is not a parent directory */
	assert_int_equal(vms_mountinfo_find(path, "/mnt/mydata/x", &m), 0);
	assert_string_equal(m.mount_point, "/");
	assert_string_equal(m.fstype, "ext4");
	vms_mount_release(&m);

	/* two mounts on one point: the later one is on top */
	assert_int_equal(vms_mountinfo_find(path, "/mnt/my/x", &m), 0);
	assert_string_equal(m.mount_point, "/mnt/my");
	assert_string_equal(m.fstype, "tmpfs");
	assert_int_equal(m.minor, 50);
	vms_mount_release(&m);

	/* no super options field at all */
	assert_int_equal(vms_mountinfo_find(path, "/srv/bind", &m), 0);
	assert_string_equal(m.root, "/sub");
	assert_string_equal(m.device, "/dev/vdb");
	assert_string_equal(m.super_options, "");
	vms_mount_release(&m);

	assert_int_equal(vms_mountinfo_find(path, "relative/path", &m), -EINVAL);
	free(path);
	path = vms_xasprintf("%s/proc/self/nonexistent", root);
	assert_int_equal(vms_mountinfo_find(path, "/", &m), -ENOENT);
	free(path);

	/* a table without "/" cannot place a path outside its mounts */
	put_file(root, "proc/self/mountinfo", "22 27 0:21 / /proc rw - proc proc rw\n");
	path = vms_xasprintf("%s/proc/self/mountinfo", root);
	assert_int_equal(vms_mountinfo_find(path, "/home", &m), -ENOENT);
	free(path);
}

/* ---- the whole fingerprint against a fake tree ---- */

static void build_fake_tree(const char *root)
{
	char *p;

	put_file(root, "proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 page-cluster=4  \n");
	put_file(root, "proc/sys/vm/swappiness", "60\n");
	put_file(root, "proc/sys/vm/page-cluster", "3\n");
	put_file(root, "proc/sys/vm/lowmem_reserve_ratio", "256\t256\t32\t0\t0\n");
	put_file(root, "proc/sys/vm/odd_multiline", "line one\nline two\n\n");
	put_file(root, "proc/sys/vm/stat_refresh", "");
	mkdirs(root, "proc/sys/vm/a_directory");
	p = vms_xasprintf("%s/proc/sys/vm/dangling", root);
	assert_int_equal(symlink("/nonexistent/vmsuite-test", p), 0);
	free(p);
	put_file(root, "sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
	put_file(root, "sys/kernel/mm/transparent_hugepage/defrag",
	         "always defer defer+madvise madvise [never]\n");
	put_file(root, "sys/kernel/mm/lru_gen/enabled", "0x0007\n");
	put_file(root, "sys/kernel/mm/lru_gen/min_ttl_ms", "0\n");
	put_file(root, "sys/module/zswap/parameters/enabled", "N\n");
	put_file(root, "sys/module/zswap/parameters/compressor", "lzo\n");
	put_file(root, "proc/swaps",
	         "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
	         "/dev/zram0                              partition\t4194300\t\t0\t\t100\n");
	put_file(root, "proc/meminfo",
	         "MemTotal:         262144 kB\nMemFree:          100000 kB\n"
	         "SwapTotal:       4194300 kB\nSwapFree:        4194300 kB\n");
	put_file(root, "proc/cpuinfo",
	         "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu MHz\t\t: 800.000\n"
	         "model name\t: Pentium III (Coppermine)\n\nprocessor\t: 1\n"
	         "model name\t: Pentium III (Coppermine)\n");
	put_file(root, "sys/devices/system/cpu/online", "0-3,8\n");
	put_file(root, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
	put_file(root, "proc/pressure/memory",
	         "some avg10=0.00 avg60=0.00 avg300=0.00 total=1234\n"
	         "full avg10=0.00 avg60=0.00 avg300=0.00 total=567\n");
	put_file(root, "proc/self/cgroup", "0::/user.slice/session-2.scope\n");
	put_file(root, "proc/asound/cards",
	         " 0 [Dummy          ]: Dummy - Dummy\n                      Dummy 1\n");
	put_file(root, "proc/self/mountinfo", "27 1 254:0 / / rw,relatime - ext4 /dev/fake rw\n");
}

static void test_collect_fake_tree(void **state)
{
	const char *root = *state;
	json_t *info;
	const json_t *v, *d;

	build_fake_tree(root);
	info = vms_sysinfo_collect_at(root, "/");

	assert_string_equal(json_string_value(value_of(info, "kernel_cmdline")),
	                    "BOOT_IMAGE=/vmlinuz root=/dev/sda1 page-cluster=4");
	assert_string_equal(source_of(info, "kernel_cmdline"), "/proc/cmdline");

	v = value_of(info, "vm_sysctl");
	assert_true(json_is_object(v));
	assert_string_equal(json_string_value(json_object_get(v, "swappiness")), "60");
	assert_string_equal(json_string_value(json_object_get(v, "page-cluster")), "3");
	assert_string_equal(json_string_value(json_object_get(v, "lowmem_reserve_ratio")),
	                    "256\t256\t32\t0\t0");
	assert_string_equal(json_string_value(json_object_get(v, "odd_multiline")),
	                    "line one\nline two");
	assert_null(json_object_get(v, "stat_refresh"));
	assert_null(json_object_get(v, "a_directory"));
	assert_null(json_object_get(v, "dangling"));
	assert_int_equal(json_object_size(v), 4);
	assert_string_equal(source_of(info, "vm_sysctl"), "/proc/sys/vm");

	assert_string_equal(json_string_value(value_of(info, "thp_enabled")), "madvise");
	assert_string_equal(json_string_value(value_of(info, "thp_defrag")), "never");
	assert_string_equal(source_of(info, "thp_defrag"),
	                    "/sys/kernel/mm/transparent_hugepage/defrag");
	v = value_of(info, "lru_gen");
	assert_string_equal(json_string_value(json_object_get(v, "enabled")), "0x0007");
	assert_string_equal(json_string_value(json_object_get(v, "min_ttl_ms")), "0");
	assert_string_equal(source_of(info, "lru_gen"), "/sys/kernel/mm/lru_gen");
	v = value_of(info, "zswap");
	assert_string_equal(json_string_value(json_object_get(v, "enabled")), "N");
	assert_string_equal(json_string_value(json_object_get(v, "compressor")), "lzo");
	assert_int_equal(json_object_size(v), 2);

	v = value_of(info, "swap_devices");
	assert_int_equal(json_array_size(v), 1);
	d = json_array_get(v, 0);
	assert_string_equal(json_string_value(json_object_get(d, "name")), "/dev/zram0");
	assert_int_equal(json_integer_value(json_object_get(d, "priority")), 100);
	assert_int_equal(json_integer_value(value_of(info, "swap_total_bytes")), 4194300LL * 1024);
	assert_int_equal(json_integer_value(value_of(info, "mem_total_bytes")), 262144LL * 1024);
	assert_int_equal(json_integer_value(value_of(info, "page_size")), sysconf(_SC_PAGESIZE));

	assert_string_equal(json_string_value(value_of(info, "cpu_model")),
	                    "Pentium III (Coppermine)");
	assert_int_equal(json_integer_value(value_of(info, "cpu_count")), 5);
	assert_string_equal(source_of(info, "cpu_count"), "/sys/devices/system/cpu/online");
	assert_string_equal(json_string_value(value_of(info, "cpu_governor")), "performance");
	assert_true(json_is_true(value_of(info, "psi_available")));

	v = value_of(info, "cgroup");
	assert_int_equal(json_integer_value(json_object_get(v, "version")), 2);
	assert_string_equal(json_string_value(json_object_get(v, "path")),
	                    "/user.slice/session-2.scope");
	assert_false(json_is_true(json_object_get(v, "hybrid")));
	assert_int_equal(json_array_size(json_object_get(v, "lines")), 1);

	assert_string_equal(json_string_value(value_of(info, "alsa_cards")),
	                    "0 [Dummy          ]: Dummy - Dummy\n                      Dummy 1");

	/* statfs describes the real "/", the mount comes from the fake mountinfo */
	v = value_of(info, "workdir_fs");
	assert_string_equal(json_string_value(json_object_get(v, "path")), "/");
	assert_string_equal(json_string_value(json_object_get(v, "device")), "/dev/fake");
	assert_string_equal(json_string_value(json_object_get(v, "mount_point")), "/");
	json_decref(info);

	/* cgroup v1 (with the unified line too): the memory controller's path is ours */
	put_file(root, "proc/self/cgroup",
	         "5:name=systemd:/\n4:cpu,cpuacct:/a\n3:memory:/vms/run1\n0::/\n");
	info = vms_sysinfo_collect_at(root, "/");
	v = value_of(info, "cgroup");
	assert_int_equal(json_integer_value(json_object_get(v, "version")), 1);
	assert_string_equal(json_string_value(json_object_get(v, "path")), "/vms/run1");
	assert_string_equal(json_string_value(json_object_get(v, "path_controller")), "memory");
	assert_true(json_is_true(json_object_get(v, "hybrid")));
	assert_int_equal(json_array_size(json_object_get(v, "lines")), 4);
	json_decref(info);

	/* a named hierarchy without controllers (name=systemd) does not make the system v1 */
	put_file(root, "proc/self/cgroup", "1:name=systemd:/init.scope\n0::/init.scope\n");
	info = vms_sysinfo_collect_at(root, "/");
	v = value_of(info, "cgroup");
	assert_int_equal(json_integer_value(json_object_get(v, "version")), 2);
	assert_string_equal(json_string_value(json_object_get(v, "path")), "/init.scope");
	assert_true(json_is_null(json_object_get(v, "path_controller")));
	assert_false(json_is_true(json_object_get(v, "hybrid")));
	json_decref(info);

	/* pure v1 without the memory controller: the first hierarchy's path */
	put_file(root, "proc/self/cgroup", "2:name=systemd:/\n3:cpu:/c\n4:pids:/p\n");
	info = vms_sysinfo_collect_at(root, "/");
	v = value_of(info, "cgroup");
	assert_int_equal(json_integer_value(json_object_get(v, "version")), 1);
	assert_string_equal(json_string_value(json_object_get(v, "path")), "/c");
	assert_true(json_is_null(json_object_get(v, "path_controller")));
	assert_false(json_is_true(json_object_get(v, "hybrid")));
	json_decref(info);
}

/* The noise sources: free page reporting, a virtio balloon, DAMON threads, cpufreq policies,
 * each found in a fake tree and listed with what to do. */
static void test_noise_sources(void **state)
{
	const char *root = *state;
	const json_t *v, *n;
	json_t *info;
	char *text = NULL;
	size_t len = 0, i;
	FILE *f;

	build_fake_tree(root);
	put_file(root, "proc/cmdline",
	         "console=ttyS0 page_reporting.page_reporting_order=11 quiet -- "
	         "page_reporting.not_the_kernels=1\n");
	put_file(root, "sys/module/page_reporting/parameters/page_reporting_order", "9\n");
	mkdirs(root, "sys/bus/virtio/drivers/virtio_balloon/virtio0");
	put_file(root, "sys/bus/virtio/drivers/virtio_balloon/bind", "");
	put_file(root, "sys/bus/virtio/devices/virtio0/features", "0110010000000000\n");
	put_file(root, "proc/79/comm", "kdamond.0\n");
	put_file(root, "proc/80/comm", "kswapd0\n");
	put_file(root, "sys/devices/system/cpu/cpufreq/boost", "1\n");
	put_file(root, "sys/devices/system/cpu/cpufreq/policy0/scaling_governor", "powersave\n");
	put_file(root, "sys/devices/system/cpu/cpufreq/policy0/affected_cpus", "0 1\n");
	put_file(root, "sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq", "3600000\n");
	put_file(root, "sys/devices/system/cpu/cpufreq/policy1/scaling_governor", "performance\n");
	put_file(root, "sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
	info = vms_sysinfo_collect_at(root, "/");

	v = value_of(info, "page_reporting");
	assert_int_equal(json_integer_value(json_object_get(v, "order")), 9);
	assert_int_equal(json_array_size(json_object_get(v, "cmdline")), 1);
	assert_string_equal(json_string_value(json_array_get(json_object_get(v, "cmdline"), 0)),
	                    "page_reporting.page_reporting_order=11");
	v = value_of(info, "virtio_balloon");
	assert_string_equal(json_string_value(json_array_get(json_object_get(v, "devices"), 0)),
	                    "virtio0");
	assert_true(json_is_true(json_object_get(v, "free_page_reporting")));
	assert_true(json_is_false(json_object_get(v, "free_page_hinting")));
	assert_true(json_is_true(json_object_get(v, "deflate_on_oom")));
	v = value_of(info, "damon_threads");
	assert_int_equal(json_array_size(v), 1);
	assert_string_equal(json_string_value(json_array_get(v, 0)), "kdamond.0");
	v = value_of(info, "cpufreq");
	assert_true(json_is_true(json_object_get(v, "boost")));
	assert_int_equal(json_array_size(json_object_get(v, "policies")), 2);
	n = json_array_get(json_object_get(v, "policies"), 0);
	assert_string_equal(json_string_value(json_object_get(n, "name")), "policy0");
	assert_string_equal(json_string_value(json_object_get(n, "governor")), "powersave");
	assert_string_equal(json_string_value(json_object_get(n, "cpus")), "0 1");
	assert_int_equal(json_integer_value(json_object_get(n, "max_khz")), 3600000);
	assert_true(json_is_null(json_object_get(n, "driver")));

	/* free page reporting, balloon, DAMON, policy0's governor, boost, THP always */
	v = value_of(info, "noise_sources");
	assert_int_equal(json_array_size(v), 6);
	json_array_foreach ((json_t *)v, i, n) {
		assert_non_null(json_string_value(json_object_get(n, "source")));
		assert_non_null(json_string_value(json_object_get(n, "found")));
		assert_true(strlen(json_string_value(json_object_get(n, "advice"))) > 20);
	}
	assert_string_equal(json_string_value(json_object_get(json_array_get(v, 0), "source")),
	                    "free page reporting");
	assert_string_equal(json_string_value(json_object_get(json_array_get(v, 3), "found")),
	                    "policy0: governor powersave");
	f = open_memstream(&text, &len);
	assert_int_equal(vms_sysinfo_write_text(f, info), 0);
	fclose(f);
	assert_non_null(strstr(text, "\nnoise sources (what else can move the figures"));
	assert_non_null(strstr(text, "- DAMON: 1 DAMON thread(s): kdamond.0\n  DAMON samples"));
	assert_null(strstr(text, "noise_sources["));
	free(text);
	json_decref(info);
}

/* An empty tree: every key is still there with a source; what cannot be read is null. */
static void test_collect_empty_tree(void **state)
{
	const char *root = *state;
	json_t *info = vms_sysinfo_collect_at(root, NULL);
	size_t i;

	for (i = 0; vms_sysinfo_keys[i]; i++) {
		value_of(info, vms_sysinfo_keys[i]);
		source_of(info, vms_sysinfo_keys[i]);
	}
	assert_true(json_is_null(value_of(info, "kernel_cmdline")));
	assert_true(json_is_null(value_of(info, "vm_sysctl")));
	assert_true(json_is_null(value_of(info, "thp_enabled")));
	assert_true(json_is_null(value_of(info, "lru_gen"))); /* a kernel without MGLRU */
	assert_true(json_is_null(value_of(info, "zswap")));
	assert_true(json_is_null(value_of(info, "swap_devices")));
	assert_true(json_is_null(value_of(info, "mem_total_bytes")));
	assert_true(json_is_null(value_of(info, "cpu_model")));
	assert_true(json_is_null(value_of(info, "cpu_governor")));
	assert_true(json_is_null(value_of(info, "cgroup")));
	assert_true(json_is_null(value_of(info, "alsa_cards")));
	assert_true(json_is_false(value_of(info, "psi_available")));
	assert_true(json_is_null(value_of(info, "page_reporting")));
	assert_true(json_is_null(value_of(info, "virtio_balloon")));
	assert_true(json_is_null(value_of(info, "damon_threads")));
	assert_true(json_is_null(value_of(info, "cpufreq")));
	assert_int_equal(json_array_size(value_of(info, "noise_sources")), 0);
	/* the CPU count falls back to sysconf and says so */
	assert_int_equal(json_integer_value(value_of(info, "cpu_count")),
	                 sysconf(_SC_NPROCESSORS_ONLN));
	assert_string_equal(source_of(info, "cpu_count"), "sysconf(_SC_NPROCESSORS_ONLN)");
	/* statfs still works; no mountinfo means no mount fields */
	assert_true(json_is_null(json_object_get(value_of(info, "workdir_fs"), "mount_point")));
	json_decref(info);
}

/* ---- text listing ---- */

static void test_write_text(void **state)
{
	json_t *info = json_pack(
	    "{s:{s:s, s:s}, s:{s:{s:s, s:s}, s:s}, s:{s:s, s:s}, s:{s:n, s:s}, s:{s:I, s:s},"
	    " s:{s:[{s:s, s:b}], s:s}}",
	    "kernel_release", "value", "2.4.10", "source", "uname(2) release", "vm_sysctl", "value",
	    "page-cluster", "3", "lowmem_reserve_ratio", "256\t32", "source", "/proc/sys/vm",
	    "alsa_cards", "value", " 0 [Dummy]: x\n   Dummy 1", "source", "/proc/asound/cards",
	    "cpu_governor", "value", "source", "cpufreq", "mem_total_bytes", "value",
	    (json_int_t)268435456, "source", "/proc/meminfo MemTotal", "nested", "value", "name",
	    "/dev/sda2", "ok", 1, "source", "somewhere");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *expect =
	    "kernel_release           2.4.10               uname(2) release\n"
	    "vm.page-cluster          3                    /proc/sys/vm/page-cluster\n"
	    "vm.lowmem_reserve_ratio  256 32               /proc/sys/vm/lowmem_reserve_ratio\n"
	    "alsa_cards                0 [Dummy]: x        /proc/asound/cards\n"
	    "                            Dummy 1\n"
	    "cpu_governor             (none)               cpufreq\n"
	    "mem_total_bytes          268435456 (256 MiB)  /proc/meminfo MemTotal\n"
	    "nested[0].name           /dev/sda2            somewhere\n"
	    "nested[0].ok             yes\n";

	(void)state;
	assert_non_null(info);
	assert_non_null(f);
	assert_int_equal(vms_sysinfo_write_text(f, info), 0);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, expect);
	free(buf);
	json_decref(info);
}

/* ---- the real machine ---- */

static void test_collect_real(void **state)
{
	json_t *info = vms_sysinfo_collect(NULL);
	struct utsname u;
	const json_t *v;
	const char *key;
	json_t *e;
	size_t i;

	(void)state;
	for (i = 0; vms_sysinfo_keys[i]; i++) {
		value_of(info, vms_sysinfo_keys[i]);
		source_of(info, vms_sysinfo_keys[i]);
	}
	json_object_foreach (info, key, e) {
		assert_true(json_is_object(e));
		assert_int_equal(json_object_size(e), 2);
	}
	assert_int_equal(uname(&u), 0);
	assert_string_equal(json_string_value(value_of(info, "kernel_release")), u.release);
	assert_true(json_integer_value(value_of(info, "mem_total_bytes")) > 0);
	assert_int_equal(json_integer_value(value_of(info, "page_size")), sysconf(_SC_PAGESIZE));
	assert_true(json_integer_value(value_of(info, "cpu_count")) >= 1);
	assert_true(json_is_boolean(value_of(info, "psi_available")));
	assert_true(json_is_string(value_of(info, "vmsuite_version")));
	v = value_of(info, "vm_sysctl");
	if (access("/proc/sys/vm/swappiness", R_OK) == 0) {
		char *want = vms_read_text("/proc/sys/vm/swappiness");

		assert_non_null(want);
		want[strcspn(want, "\n")] = '\0';
		assert_string_equal(json_string_value(json_object_get(v, "swappiness")), want);
		free(want);
		/* reading stat_refresh has a side effect: never read */
		assert_null(json_object_get(v, "stat_refresh"));
	}
	v = value_of(info, "workdir_fs");
	assert_true(json_is_object(v));
	assert_int_equal(json_string_value(json_object_get(v, "path"))[0], '/');
	assert_true(json_integer_value(json_object_get(v, "free_bytes")) <=
	            json_integer_value(json_object_get(v, "total_bytes")));
	json_decref(info);
}

static void test_fs_info(void **state)
{
	struct vms_fs_info fi;
	struct statfs sfs;
	char cwd[PATH_MAX];

	(void)state;
	assert_int_equal(vms_fs_info("/", &fi), 0);
	assert_string_equal(fi.path, "/");
	assert_non_null(fi.mount_point);
	assert_string_equal(fi.mount_point, "/");
	assert_true(fi.total_bytes > 0);
	assert_true(fi.free_bytes <= fi.total_bytes);
	vms_fs_info_release(&fi);
	assert_null(fi.path);

	/* relative paths come back absolute */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(vms_fs_info(".", &fi), 0);
	assert_string_equal(fi.path, cwd);
	vms_fs_info_release(&fi);

	assert_int_equal(vms_fs_info("/nonexistent/vmsuite-test-dir", &fi), -ENOENT);

	/* /proc is never tmpfs */
	assert_int_equal(vms_fs_info("/proc", &fi), 0);
	assert_false(fi.is_tmpfs);
	assert_string_equal(fi.magic_name, "proc");
	vms_fs_info_release(&fi);

	/* a tmpfs is recognised both ways when the machine has one at /dev/shm */
	if (statfs("/dev/shm", &sfs) == 0 && (unsigned long)sfs.f_type == 0x01021994UL) {
		assert_int_equal(vms_fs_info("/dev/shm", &fi), 0);
		assert_true(fi.is_tmpfs);
		assert_true(fi.memory_backed);
		assert_string_equal(fi.magic_name, "tmpfs");
		assert_non_null(fi.fstype);
		assert_string_equal(fi.fstype, "tmpfs");
		vms_fs_info_release(&fi);
	} else {
		print_message("no tmpfs at /dev/shm: tmpfs case not exercised\n");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_unescape_octal),
	    cmocka_unit_test(test_sysfs_selection),
	    cmocka_unit_test(test_swaps_parse),
	    cmocka_unit_test_setup_teardown(test_mountinfo_find, root_setup, root_teardown),
	    cmocka_unit_test_setup_teardown(test_collect_fake_tree, root_setup, root_teardown),
	    cmocka_unit_test_setup_teardown(test_noise_sources, root_setup, root_teardown),
	    cmocka_unit_test_setup_teardown(test_collect_empty_tree, root_setup, root_teardown),
	    cmocka_unit_test(test_write_text),
	    cmocka_unit_test(test_collect_real),
	    cmocka_unit_test(test_fs_info),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
