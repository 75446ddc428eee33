#define _XOPEN_SOURCE 700   /* realpath */
#include "descriptor.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 1 when DIR (a real path) is /proc/PID/fd or /proc/PID/task/TID/fd of this process. */
static int
is_own_fd_dir(const char *dir)
{
	char own[64];
	int n = snprintf(own, sizeof own, "/proc/%ld/", (long)getpid());
	const char *rest = dir + n;

	if (strncmp(dir, own, (size_t)n) != 0)
		return 0;
	if (strncmp(rest, "task/", 5) == 0) {
		rest += 5;
		if (*rest < '0' || *rest > '9')
			return 0;
		rest += strspn(rest, "0123456789");
		if (*rest++ != '/')
			return 0;
	}
	return strcmp(rest, "fd") == 0;
}

/* The directory part of PATH made a real path (malloc'd), its last name in *BASE. */
static char *
real_dir(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	char *dir, *real;

	*base = slash ? slash + 1 : path;
	if (slash == NULL)
		return realpath(".", NULL);
	if ((dir = strndup(path, slash == path ? 1 : (size_t)(slash - path))) == NULL)
		return NULL;
	real = realpath(dir, NULL);
	free(dir);
	return real;
}

/*
 * The descriptor that PATH names, through its symbolic links, or -1:
 * /dev/stdout, /dev/fd/N and /proc/self/fd/N lead to /proc/PID/fd/N,
 * whose entries are this process's descriptors. Each step is looked at
 * before it is followed, because following /proc/PID/fd/N goes to the
 * file behind the descriptor, which a rename would replace.
 */
static int
named_descriptor(const char *path)
{
	char *cur = strdup(path), *dir, link[PATH_MAX];
	const char *base;
	struct stat st;
	ssize_t n;
	int hops, fd = -1;

	for (hops = 0; cur != NULL && hops < 40; hops++) {
		if ((dir = real_dir(cur, &base)) == NULL)
			break;
		if (is_own_fd_dir(dir) && *base && strlen(base) < 10 &&
		    strspn(base, "0123456789") == strlen(base)) {
			fd = atoi(base);
		} else if (lstat(cur, &st) == 0 && S_ISLNK(st.st_mode) &&
		    (n = readlink(cur, link, sizeof link - 1)) >= 0) {
			link[n] = '\0';
			free(cur);
			/* a relative link is relative to the link's directory */
			if (link[0] == '/')
				cur = strdup(link);
			else if ((cur = malloc(strlen(dir) + (size_t)n + 2)) != NULL)
				sprintf(cur, "%s/%s", dir, link);
			free(dir);
			continue;
		}
		free(dir);
		break;
	}
	free(cur);
	return fd;
}

/* 1 when FD is open for writing. */
static int
writable(int fd)
{
	int flags = fcntl(fd, F_GETFL);

	return flags >= 0 && (flags & O_ACCMODE) != O_RDONLY;
}

/* 1 when FD is open for writing on the file TARGET. */
static int
writes_to(int fd, const struct stat *target)
{
	struct stat st;

	return fstat(fd, &st) == 0 && st.st_dev == target->st_dev &&
	    st.st_ino == target->st_ino && writable(fd);
}

/*
 * A descriptor open for writing on TARGET, or -1: standard output first,
 * then standard error, then any other the command was given ("3>> log").
 */
static int
open_on(const struct stat *target)
{
	struct dirent *e;
	DIR *dir;
	char *end;
	long fd;

	if (writes_to(STDOUT_FILENO, target))
		return STDOUT_FILENO;
	if (writes_to(STDERR_FILENO, target))
		return STDERR_FILENO;
	if ((dir = opendir("/proc/self/fd")) == NULL)
		return -1;
	while ((e = readdir(dir)) != NULL) {
		fd = strtol(e->d_name, &end, 10);
		if (end != e->d_name && *end == '\0' && fd > STDERR_FILENO && fd <= INT_MAX &&
		    fd != dirfd(dir) && writes_to((int)fd, target))
			break;
	}
	fd = e ? fd : -1;
	closedir(dir);
	return (int)fd;
}

int
dcfg_output_descriptor(const char *path, const struct stat *target, struct dcfg_error *err)
{
	int fd = named_descriptor(path);

	if (fd >= 0 && fcntl(fd, F_GETFD) >= 0) {
		if (writable(fd))
			return fd;
		dcfg_error_set(err, path, "descriptor %d is not open for writing", fd);
		return -2;
	}
	return target ? open_on(target) : -1;
}
