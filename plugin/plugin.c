/*
 * dcfg-record's QEMU plugin: records, into the spool directory given as
 * dir=DIR, every translation block, every thread's block sequence and the
 * images that hold them, in the format of lib/record/spool.h. Loaded as
 *
 *     qemu-x86_64 -plugin dcfg-record-plugin.so,dir=DIR[,skip=N][,length=N] PROGRAM
 *
 * skip and length give a window of each thread's instructions: only the
 * blocks whose first instruction's count (from 0, per thread) lies in
 * [skip, skip + length) are written.
 *
 * An error is reported once on stderr as "dcfg-record: plugin: ...";
 * from then on nothing more is written and DIR/process lacks its
 * "complete" line, so the reader refuses the spool. Bad arguments make
 * qemu_plugin_install fail, and QEMU exits before running the program.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder.h"

struct rec_state rec = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.tbs_fd = -1,
	.images_fd = -1,
};

DCFG_QEMU_EXPORT int qemu_plugin_version = DCFG_QEMU_PLUGIN_API;

void rec_fail(const char *fmt, ...)
{
	if (rec.failed || rec.in_fork_child)
		return;
	rec.failed = true;
	char message[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	fprintf(stderr, "dcfg-record: plugin: %s\n", message);
}

int rec_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len > 0) {
		ssize_t done = write(fd, p, len);
		if (done < 0 && errno == EINTR)
			continue;
		if (done < 0)
			return -1;
		if (done == 0) {
			errno = EIO;
			return -1;
		}
		p += done;
		len -= (size_t)done;
	}
	return 0;
}

/* Creates DIR/NAME afresh; -1 (reported) on failure. */
int rec_open_spool_file(const char *name)
{
	size_t size = strlen(rec.dir) + strlen(name) + 2;
	char *path = malloc(size);
	if (!path) {
		rec_fail("out of memory");
		return -1;
	}
	snprintf(path, size, "%s/%s", rec.dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		rec_fail("cannot create %s: %s", path, strerror(errno));
	free(path);
	return fd;
}

/* N, a decimal number of instructions. */
static int parse_count(const char *name, const char *text, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long value = strtoull(text, &end, 10);
	if (text[0] < '0' || text[0] > '9' || *end != '\0' || errno == ERANGE) {
		fprintf(stderr, "dcfg-record: plugin: %s=%s: not a number of instructions\n", name,
			text);
		return -1;
	}
	*out = value;
	return 0;
}

static int parse_args(int argc, char **argv)
{
	rec.skip = 0;
	rec.length = UINT64_MAX;
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];
		if (strncmp(arg, "dir=", 4) == 0 && arg[4] != '\0') {
			free(rec.dir);
			rec.dir = strdup(arg + 4);
			if (!rec.dir)
				return -1;
		} else if (strncmp(arg, "skip=", 5) == 0) {
			if (parse_count("skip", arg + 5, &rec.skip) != 0)
				return -1;
		} else if (strncmp(arg, "length=", 7) == 0) {
			if (parse_count("length", arg + 7, &rec.length) != 0)
				return -1;
		} else {
			fprintf(stderr,
				"dcfg-record: plugin: unknown argument '%s' (expected dir=DIR, "
				"skip=N, length=N)\n",
				arg);
			return -1;
		}
	}
	rec.windowed = rec.skip != 0 || rec.length != UINT64_MAX;
	if (!rec.dir) {
		fprintf(stderr, "dcfg-record: plugin: no spool directory: give dir=DIR\n");
		return -1;
	}
	return 0;
}

/* exit_group's status ends the process; exit's only when no other thread runs. */
static void on_syscall(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, uint64_t a1,
		       uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6,
		       uint64_t a7, uint64_t a8)
{
	(void)id, (void)vcpu, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6, (void)a7,
		(void)a8;
	if (num != rec.sys_exit_group && num != rec.sys_exit)
		return;
	pthread_mutex_lock(&rec.lock);
	if (num == rec.sys_exit_group || rec.live_threads <= 1) {
		rec.status = (int)(a1 & 0xff);
		rec.status_known = true;
	}
	pthread_mutex_unlock(&rec.lock);
}

static void write_process_file(void)
{
	char text[256];
	int len = snprintf(text, sizeof text, "pid %ld\narch %s\nthreads %u\n", (long)rec.pid,
			   rec.arch, rec.n_threads);
	/* A program killed by a signal gave exit_group no status. */
	if (rec.status_known)
		len += snprintf(text + len, sizeof text - (size_t)len, "status %d\n", rec.status);
	int fd = rec_open_spool_file("process");
	if (fd < 0)
		return;
	if (rec_write_all(fd, text, (size_t)len) != 0)
		rec_fail("cannot write process in %s: %s", rec.dir, strerror(errno));
	/* Last, and only when everything before it was written. */
	if (!rec.failed && rec_write_all(fd, "complete\n", 9) != 0)
		rec_fail("cannot write process in %s: %s", rec.dir, strerror(errno));
	close(fd);
}

static void on_exit_cb(qemu_plugin_id_t id, void *userdata)
{
	(void)id, (void)userdata;
	pthread_mutex_lock(&rec.lock);
	if (!rec.in_fork_child) {
		rec_threads_close_all();
		rec_blocks_close();
		rec_images_close();
		write_process_file();
	}
	pthread_mutex_unlock(&rec.lock);
}

static void before_fork(void)
{
	pthread_mutex_lock(&rec.lock);
}

static void after_fork_parent(void)
{
	pthread_mutex_unlock(&rec.lock);
}

/* The child is another process: it records nothing and writes nothing. */
static void after_fork_child(void)
{
	rec.in_fork_child = true;
	rec_threads_forget();
	pthread_mutex_unlock(&rec.lock);
}

/* The names are our constants: info, and the name in it, are gone after install. */
static int set_arch(const char *target)
{
	/* Linux's system call numbers for exit and exit_group. */
	if (strcmp(target, "x86_64") == 0) {
		rec.arch = "x86_64";
		rec.sys_exit = 60;
		rec.sys_exit_group = 231;
	} else if (strcmp(target, "aarch64") == 0) {
		rec.arch = "aarch64";
		rec.sys_exit = 93;
		rec.sys_exit_group = 94;
	} else {
		fprintf(stderr, "dcfg-record: plugin: cannot record a %s guest (only x86_64 and "
				"aarch64)\n", target);
		return -1;
	}
	return 0;
}

DCFG_QEMU_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
					 char **argv)
{
	if (info->system_emulation) {
		fprintf(stderr, "dcfg-record: plugin: only user-mode QEMU (qemu-user) is supported\n");
		return -1;
	}
	if (parse_args(argc, argv) != 0 || set_arch(info->target_name) != 0)
		return -1;
	rec.pid = getpid();
	/* A stale process file would vouch for this spool before it is whole. */
	size_t size = strlen(rec.dir) + sizeof "/process";
	char *process = malloc(size);
	if (process) {
		snprintf(process, size, "%s/process", rec.dir);
		if (unlink(process) != 0 && errno != ENOENT)
			rec_fail("cannot remove %s: %s", process, strerror(errno));
		free(process);
	}
	if (rec.failed || rec_blocks_open() != 0 || rec_images_open() != 0)
		return -1;
	if (pthread_atfork(before_fork, after_fork_parent, after_fork_child) != 0) {
		rec_fail("cannot watch for fork");
		return -1;
	}
	qemu_plugin_register_vcpu_init_cb(id, rec_on_vcpu_init);
	qemu_plugin_register_vcpu_exit_cb(id, rec_on_vcpu_exit);
	qemu_plugin_register_vcpu_tb_trans_cb(id, rec_on_tb_trans);
	qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
	qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
	return 0;
}
