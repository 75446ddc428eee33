#include "progress.h"

#include "output.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define INTERVAL 0.5         /* seconds between two drawings */
#define NAME_MAX_SHOWN 32    /* a longer base name keeps its end */
#define NAME_MIN_SHOWN 8     /* a narrow terminal shortens it down to this, then drops it */

static double
monotonic(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* An option given wins; then DCFG_PROGRESS: 0 is OFF, 1 is ON, anything else is unset. */
static enum dcfg_progress_mode
from_environment(enum dcfg_progress_mode option)
{
	const char *env = getenv(DCFG_PROGRESS_ENV);

	if (option != DCFG_PROGRESS_AUTO || env == NULL)
		return option;
	if (strcmp(env, "0") == 0)
		return DCFG_PROGRESS_OFF;
	if (strcmp(env, "1") == 0)
		return DCFG_PROGRESS_ON;
	return DCFG_PROGRESS_AUTO;
}

static int
regular_file(const char *path)
{
	struct stat st;

	if (path == NULL || strcmp(path, "-") == 0)
		return fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

enum dcfg_progress_mode
dcfg_progress_mode_for(enum dcfg_progress_mode option, const char *main_input)
{
	enum dcfg_progress_mode mode = from_environment(option);

	if (mode == DCFG_PROGRESS_AUTO && !regular_file(main_input))
		return DCFG_PROGRESS_OFF;
	return mode;
}

void
dcfg_progress_init(struct dcfg_progress *pg, const char *prog,
    enum dcfg_progress_mode mode)
{
	struct winsize ws;
	int tty = isatty(STDERR_FILENO);
	const char *term = getenv("TERM");

	memset(pg, 0, sizeof *pg);
	mode = from_environment(mode);
	pg->prog = prog;
	pg->on = mode == DCFG_PROGRESS_ON || (mode == DCFG_PROGRESS_AUTO && tty);
	pg->to = stderr;
	pg->clock = monotonic;
	/* terminfo's dumb terminal has no clear-to-end-of-line; unset, nothing is known */
	pg->plain = term == NULL || *term == '\0' || strcmp(term, "dumb") == 0;
	/* A line that wraps could not be redrawn by a carriage return. */
	if (tty && ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0)
		pg->width = ws.ws_col;
}

/* A regular file has a size to measure against; a pipe or terminal has none. */
static void
measure(struct dcfg_progress *pg, const char *path)
{
	int std = path == NULL || strcmp(path, "-") == 0;
	struct stat st;
	off_t at = 0;

	pg->sized = 0;
	pg->size = 0;
	if ((std ? fstat(STDIN_FILENO, &st) : stat(path, &st)) < 0 || !S_ISREG(st.st_mode))
		return;
	/* Standard input redirected from a file may start part way into it. */
	if (std && (at = lseek(STDIN_FILENO, 0, SEEK_CUR)) < 0)
		at = 0;
	pg->sized = 1;
	pg->size = st.st_size > at ? (uint64_t)(st.st_size - at) : 0;
}

static void
begin(struct dcfg_progress *pg, const char *name, const char *unit)
{
	pg->active = 1;
	pg->name = name;
	pg->unit = unit;
	pg->pass = pg->passes = 0;
	pg->bytes = pg->units = 0;
	pg->start = pg->clock(pg->clock_ctx);
	pg->next = pg->start + INTERVAL;
}

void
dcfg_progress_file(struct dcfg_progress *pg, const char *name, const char *path,
    const char *unit)
{
	if (pg == NULL || !pg->on)
		return;
	dcfg_progress_done(pg);
	measure(pg, path);
	begin(pg, name ? name : path ? path : "-", unit);
}

void
dcfg_progress_pass(struct dcfg_progress *pg, int pass, int passes)
{
	if (pg == NULL || !pg->on)
		return;
	/* a pass that does not follow the one before begins a job of its own */
	if (pass <= 1 || pass != pg->job_pass + 1) {
		pg->job_start = pg->start;
		pg->job_bytes = 0;
	}
	pg->job_pass = pass;
	pg->pass = pass;
	pg->passes = passes;
}

/*
 * The line is made of fields, "PROG: NAME (pass P of N): SHARE, BYTES,
 * RATE, COUNT RATE, ETA", each in its own buffer so that a narrow
 * terminal can lose some of them whole.
 */
enum { SHARE, BYTES, RATE, COUNT, ETA, N_FIELDS };

struct line {
	char prog[64];
	char name[4 * NAME_MAX_SHOWN + 8];   /* a file name's control bytes escaped */
	char pass[48];
	char field[N_FIELDS][48];            /* "": not shown */
	int show_prog, show_name;
};

struct text {
	char *buf;
	size_t size, len;
};

static void
add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->len + 1 >= t->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->len, t->size - t->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len += (size_t)n < t->size - t->len ? (size_t)n : t->size - t->len - 1;
}

/* 512 B, 1.5 KiB, 3.2 MiB: one decimal from KiB up, as pv shows sizes. */
static void
bytes_text(char *buf, size_t size, double v)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	size_t i = 0;

	if (v < 1024.0) {
		snprintf(buf, size, "%.0f B", v);
		return;
	}
	v /= 1024.0;
	while (v >= 1024.0 && i + 1 < sizeof units / sizeof units[0]) {
		v /= 1024.0;
		i++;
	}
	snprintf(buf, size, "%.1f %s", v, units[i]);
}

/* 950, 12.5k, 2.4M: a count rate in SI steps. */
static void
count_text(char *buf, size_t size, double v, const char *unit)
{
	if (v < 1e3)
		snprintf(buf, size, "%.0f %s/s", v, unit);
	else if (v < 1e6)
		snprintf(buf, size, "%.1fk %s/s", v / 1e3, unit);
	else if (v < 1e9)
		snprintf(buf, size, "%.1fM %s/s", v / 1e6, unit);
	else
		snprintf(buf, size, "%.1fG %s/s", v / 1e9, unit);
}

static void
name_text(char *buf, size_t size, const char *name)
{
	const char *base = strrchr(name, '/');
	size_t len;

	if (strcmp(name, "-") == 0) {
		snprintf(buf, size, "<stdin>");
		return;
	}
	base = base && base[1] ? base + 1 : name;
	len = strlen(base);
	if (len > NAME_MAX_SHOWN) {
		memcpy(buf, "...", 3);
		dcfg_escape_message(buf + 3, size - 3, base + len - (NAME_MAX_SHOWN - 3));
	} else {
		dcfg_escape_message(buf, size, base);
	}
}

/*
 * The time left: of the file, or with passes of the whole job, at the
 * job's average rate. Negative: not known (no size, or no rate yet).
 */
static double
seconds_left(const struct dcfg_progress *pg, double now)
{
	double left, done = (double)pg->bytes, elapsed = now - pg->start;

	if (!pg->sized)
		return -1.0;
	left = pg->bytes >= pg->size ? 0.0 : (double)(pg->size - pg->bytes);
	if (pg->passes > 1) {
		if (pg->pass < pg->passes)
			left += (double)(pg->passes - pg->pass) * (double)pg->size;
		done += (double)pg->job_bytes;
		elapsed = now - pg->job_start;
	}
	if (elapsed <= 0.0 || done <= 0.0)
		return -1.0;
	return left / (done / elapsed);
}

/*
 * Rates are averages since the file began; with no time gone yet there is
 * no rate and no ETA. Without a size there is no share and no ETA.
 */
static void
fill(const struct dcfg_progress *pg, double now, struct line *l)
{
	double elapsed = now - pg->start, left = seconds_left(pg, now);

	memset(l, 0, sizeof *l);
	snprintf(l->prog, sizeof l->prog, "%s", pg->prog);
	l->show_prog = 1;
	if (pg->name) {
		name_text(l->name, sizeof l->name, pg->name);
		if (pg->passes > 1)
			snprintf(l->pass, sizeof l->pass, " (pass %d of %d)", pg->pass, pg->passes);
		l->show_name = 1;
	}
	if (pg->sized)   /* floor: 100% only when every byte is read */
		snprintf(l->field[SHARE], sizeof l->field[SHARE], "%u%%", pg->bytes >= pg->size ?
		    100u : (unsigned)((double)pg->bytes * 100.0 / (double)pg->size));
	bytes_text(l->field[BYTES], sizeof l->field[BYTES], (double)pg->bytes);
	if (elapsed > 0.0) {
		bytes_text(l->field[RATE], sizeof l->field[RATE] - 2, (double)pg->bytes / elapsed);
		strcat(l->field[RATE], "/s");
		if (pg->unit)
			count_text(l->field[COUNT], sizeof l->field[COUNT],
			    (double)pg->units / elapsed, pg->unit);
	}
	if (left >= 0.0) {
		uint64_t s = (uint64_t)(left + 0.5);
		snprintf(l->field[ETA], sizeof l->field[ETA], "ETA %llu:%02u:%02u",
		    (unsigned long long)(s / 3600), (unsigned)(s / 60 % 60), (unsigned)(s % 60));
	}
}

static size_t
compose(const struct line *l, char *buf, size_t size)
{
	struct text t = { buf, size, 0 };
	const char *sep = "";
	int i;

	buf[0] = '\0';
	if (l->show_prog)
		add(&t, "%s: ", l->prog);
	if (l->show_name)
		add(&t, "%s%s: ", l->name, l->pass);
	for (i = 0; i < N_FIELDS; i++)
		if (l->field[i][0]) {
			add(&t, "%s%s", sep, l->field[i]);
			sep = ", ";
		}
	return t.len;
}

/* Columns of S's first LEN bytes: one a character (escaped names are UTF-8). */
static size_t
columns(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

/* The bytes of S's first COLS columns. */
static size_t
bytes_of_columns(const char *s, size_t len, size_t cols)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && cols-- == 0)
			break;
	return i;
}

/* The name shortened from the left to COLS columns ("..." and its end), never below NAME_MIN_SHOWN. */
static void
shorten_name(char *name, size_t cols)
{
	size_t len = strlen(name), have = columns(name, len), skip;

	if (cols < NAME_MIN_SHOWN)
		cols = NAME_MIN_SHOWN;
	if (have <= cols)
		return;
	skip = bytes_of_columns(name, len, have - (cols - 3));
	memmove(name + 3, name + skip, len - skip + 1);
	memcpy(name, "...", 3);
}

/* Drops the field I, unless it is the last one left to show progress by. */
static int
drop(struct line *l, int i)
{
	int j;

	if (!l->field[i][0])
		return 0;
	for (j = 0; j < N_FIELDS; j++)
		if (j != i && l->field[j][0]) {
			l->field[i][0] = '\0';
			return 1;
		}
	return 0;
}

/*
 * The line in at most LIMIT columns (0: any): the name is shortened
 * first, then the count rate, the byte rate, the bytes, the name, the
 * share and the program's name go, in that order, so that the ETA is
 * the last field to be cut. Returns the bytes of the line in BUF.
 */
static size_t
layout(struct line *l, size_t limit, char *buf, size_t size)
{
	size_t len = compose(l, buf, size), over, have;
	int step;

	for (step = 0; limit > 0 && columns(buf, len) > limit; step++) {
		over = columns(buf, len) - limit;
		switch (step) {
		case 0:
			have = columns(l->name, strlen(l->name));
			if (l->show_name)
				shorten_name(l->name, have > over ? have - over : 0);
			break;
		case 1: drop(l, COUNT); break;
		case 2: drop(l, RATE); break;
		case 3: drop(l, BYTES); break;
		case 4: l->show_name = 0; break;
		case 5: drop(l, SHARE); break;
		case 6: l->show_prog = 0; break;
		default: return bytes_of_columns(buf, len, limit);
		}
		len = compose(l, buf, size);
	}
	return len;
}

static void
pad(FILE *to, size_t n)
{
	while (n-- > 0)
		putc(' ', to);
}

/*
 * "\r" TEXT "\e[K"; where escapes are not known to work, "\r" TEXT and
 * spaces over what is left of the line before.
 */
static void
draw(struct dcfg_progress *pg, double now)
{
	char buf[512];
	struct line l;
	size_t n, cols;

	fill(pg, now, &l);
	n = layout(&l, pg->width > 1 ? (size_t)pg->width - 1 : 0, buf, sizeof buf);
	cols = columns(buf, n);
	fprintf(pg->to, "\r%.*s", (int)n, buf);
	if (!pg->plain)
		fputs("\033[K", pg->to);
	else if (pg->shown && pg->drawn > cols)
		pad(pg->to, pg->drawn - cols);
	fflush(pg->to);
	pg->drawn = cols;
	pg->shown = 1;
}

static void
clear(struct dcfg_progress *pg)
{
	if (!pg->shown)
		return;
	if (pg->plain) {
		putc('\r', pg->to);
		pad(pg->to, pg->drawn);
		putc('\r', pg->to);
	} else {
		fputs("\r\033[K", pg->to);
	}
	fflush(pg->to);
	pg->shown = 0;
	pg->drawn = 0;
}

void
dcfg_progress_update(struct dcfg_progress *pg, uint64_t bytes, uint64_t units)
{
	double now;

	if (pg == NULL || !pg->on)
		return;
	if (!pg->active) {   /* updated without being told the file: no name, no size */
		pg->sized = 0;
		begin(pg, NULL, NULL);
	}
	pg->bytes = bytes;
	pg->units = units;
	now = pg->clock(pg->clock_ctx);
	if (now < pg->next)
		return;
	draw(pg, now);
	pg->next = now + INTERVAL;
}

void
dcfg_progress_bytes(void *ctx, uint64_t bytes)
{
	struct dcfg_progress *pg = ctx;

	if (pg)
		dcfg_progress_update(pg, bytes, pg->units);
}

struct dcfg_progress *
dcfg_progress_of(void (*progress)(void *ctx, uint64_t bytes), void *ctx)
{
	return progress == dcfg_progress_bytes ? ctx : NULL;
}

void
dcfg_progress_done(struct dcfg_progress *pg)
{
	if (pg == NULL || !pg->on || !pg->active)
		return;
	draw(pg, pg->clock(pg->clock_ctx));
	clear(pg);
	if (pg->passes > 1)
		pg->job_bytes += pg->bytes;
	pg->active = 0;
}

void
dcfg_progress_end(struct dcfg_progress *pg)
{
	if (pg == NULL || !pg->on)
		return;
	dcfg_progress_done(pg);
	clear(pg);
}
