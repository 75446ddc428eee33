/*
 * Images: the files (or anonymous memory) that hold the code QEMU
 * translates. guest_base is 0 for the guests we record, so a block's pc
 * is a host address and /proc/self/maps shows the mapping that holds it;
 * qemu's own libraries are in the same list, at other addresses, which
 * is why only the mapping that holds the pc decides the file.
 *
 * The image is that file's cluster of mappings around the pc: mappings of
 * the same device and inode, with nothing but anonymous mappings or
 * unmapped holes between them (the loader leaves both between segments).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder.h"

struct mapping {
	uint64_t start, end, offset, inode;
	unsigned dev_major, dev_minor;
	const char *path;     /* inside the maps text; NUL-ended by the parser */
};

int rec_images_open(void)
{
	rec.images_fd = rec_open_spool_file("images");
	return rec.images_fd >= 0 ? 0 : -1;
}

void rec_images_close(void)
{
	if (rec.images_fd >= 0 && close(rec.images_fd) != 0)
		rec_fail("cannot close images in %s: %s", rec.dir, strerror(errno));
	rec.images_fd = -1;
	free(rec.images);
	rec.images = NULL;
	rec.n_images = rec.images_cap = 0;
}

static bool known(uint64_t pc)
{
	if (rec.last_image < rec.n_images) {
		const struct rec_image *im = &rec.images[rec.last_image];
		if (pc >= im->start && pc < im->end)
			return true;
	}
	for (size_t i = 0; i < rec.n_images; i++)
		if (pc >= rec.images[i].start && pc < rec.images[i].end) {
			rec.last_image = i;
			return true;
		}
	return false;
}

/* The whole of /proc/self/maps, NUL-ended; NULL on failure (reported). */
static char *read_maps(void)
{
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rec_fail("cannot open /proc/self/maps: %s", strerror(errno));
		return NULL;
	}
	size_t cap = 64 * 1024, len = 0;
	char *text = malloc(cap);
	for (;;) {
		if (text && len + 1 == cap) {
			char *grown = realloc(text, cap * 2);
			if (!grown) {
				free(text);
				text = NULL;
			} else {
				text = grown;
				cap *= 2;
			}
		}
		if (!text)
			break;
		ssize_t got = read(fd, text + len, cap - 1 - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rec_fail("cannot read /proc/self/maps: %s", strerror(errno));
			free(text);
			text = NULL;
			break;
		}
		if (got == 0)
			break;
		len += (size_t)got;
	}
	close(fd);
	if (!text)
		rec_fail("out of memory reading /proc/self/maps");
	else
		text[len] = '\0';
	return text;
}

/* Splits the maps text into mappings, in place; returns how many. */
static size_t parse_maps(char *text, struct mapping **out)
{
	size_t n = 0, cap = 0;
	struct mapping *maps = NULL;
	for (char *line = text; *line;) {
		char *end = strchr(line, '\n');
		if (end)
			*end = '\0';
		struct mapping m;
		int path_at = 0;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64 " %x:%x %" SCNu64 " %n",
			   &m.start, &m.end, &m.offset, &m.dev_major, &m.dev_minor, &m.inode,
			   &path_at) >= 6 && path_at > 0) {
			m.path = line + path_at;
			if (n == cap) {
				cap = cap ? cap * 2 : 256;
				struct mapping *grown = realloc(maps, cap * sizeof *grown);
				if (!grown) {
					free(maps);
					*out = NULL;
					return 0;
				}
				maps = grown;
			}
			maps[n++] = m;
		}
		if (!end)
			break;
		line = end + 1;
	}
	*out = maps;
	return n;
}

static bool same_file(const struct mapping *a, const struct mapping *b)
{
	return a->inode == b->inode && a->dev_major == b->dev_major &&
	       a->dev_minor == b->dev_minor;
}

static bool is_gap(const struct mapping *m)
{
	return m->inode == 0 && m->path[0] == '\0';
}

/* The cluster of `at`'s file around it, as [*first, *last]. */
static void cluster(const struct mapping *maps, size_t n, size_t at, size_t *first, size_t *last)
{
	*first = *last = at;
	if (maps[at].inode == 0)
		return;
	for (size_t i = at; i-- > 0;) {
		if (same_file(&maps[i], &maps[at]))
			*first = i;
		else if (!is_gap(&maps[i]))
			break;
	}
	for (size_t i = at + 1; i < n; i++) {
		if (same_file(&maps[i], &maps[at]))
			*last = i;
		else if (!is_gap(&maps[i]))
			break;
	}
}

static void add_image(uint64_t start, uint64_t end, const char *path)
{
	/* A later image over an earlier one (memory reused) replaces it. */
	for (size_t i = 0; i < rec.n_images;) {
		if (rec.images[i].start < end && start < rec.images[i].end)
			rec.images[i] = rec.images[--rec.n_images];
		else
			i++;
	}
	if (rec.n_images == rec.images_cap) {
		size_t cap = rec.images_cap ? rec.images_cap * 2 : 64;
		struct rec_image *grown = realloc(rec.images, cap * sizeof *grown);
		if (!grown) {
			rec_fail("out of memory for %zu images", cap);
			return;
		}
		rec.images = grown;
		rec.images_cap = cap;
	}
	rec.images[rec.n_images++] = (struct rec_image){ start, end };
	size_t size = strlen(path) + 64;
	char *line = malloc(size);
	if (!line) {
		rec_fail("out of memory for an image's line");
		return;
	}
	int len = snprintf(line, size, "image 0x%" PRIx64 " 0x%" PRIx64 " %s\n", start,
			   end - start, path);
	if (!rec.in_fork_child && !rec.failed && rec_write_all(rec.images_fd, line, (size_t)len) != 0)
		rec_fail("cannot write images in %s: %s", rec.dir, strerror(errno));
	free(line);
}

void rec_images_note_pc(uint64_t pc)
{
	if (known(pc))
		return;
	char *text = read_maps();
	if (!text)
		return;
	struct mapping *maps;
	size_t n = parse_maps(text, &maps);
	size_t at = 0;
	while (at < n && !(pc >= maps[at].start && pc < maps[at].end))
		at++;
	if (at == n) {
		/* QEMU reads code from guest memory: it must be mapped. */
		rec_fail("code at 0x%" PRIx64 " is in no mapping of /proc/self/maps", pc);
	} else {
		size_t first, last;
		cluster(maps, n, at, &first, &last);
		uint64_t load = maps[first].start;
		if (maps[first].inode != 0 && maps[first].offset <= load)
			load -= maps[first].offset;
		add_image(load, maps[last].end, maps[at].path);
	}
	free(maps);
	free(text);
}
