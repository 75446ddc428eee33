#include "progress.h"

#include "output.h"

#include <stdarg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define INTERVAL 0.5         /* seconds between two drawings */
#define NAME_MAX_SHOWN 32    /* a longer base name keeps its end */

static double
monotonic(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void
dcfg_progress_init(struct dcfg_progress *pg, const char *prog,
    enum dcfg_progress_mode mode)
{
	struct winsize ws;
	int tty = isatty(STDERR_FILENO);

	memset(pg, 0, sizeof *pg);
	pg->prog = prog;
	pg->on = mode == DCFG_PROGRESS_ON || (mode == DCFG_PROGRESS_AUTO && tty);
	pg->to = stderr;
	pg->clock = monotonic;
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
	pg->pass = pass;
	pg->passes = passes;
}

struct text {
	char *buf;
	size_t size, len;
};

static void
add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->len >= t->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->len, t->size - t->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len += (size_t)n < t->size - t->len ? (size_t)n : t->size - t->len - 1;
}

/* 512 B, 1.5 KiB, 3.2 MiB: one decimal from KiB up, as pv shows sizes. */
static void
add_bytes(struct text *t, double v)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	size_t i = 0;

	if (v < 1024.0) {
		add(t, "%.0f B", v);
		return;
	}
	v /= 1024.0;
	while (v >= 1024.0 && i + 1 < sizeof units / sizeof units[0]) {
		v /= 1024.0;
		i++;
	}
	add(t, "%.1f %s", v, units[i]);
}

/* 950, 12.5k, 2.4M: a count rate in SI steps. */
static void
add_count(struct text *t, double v)
{
	if (v < 1e3)
		add(t, "%.0f", v);
	else if (v < 1e6)
		add(t, "%.1fk", v / 1e3);
	else if (v < 1e9)
		add(t, "%.1fM", v / 1e6);
	else
		add(t, "%.1fG", v / 1e9);
}

static void
add_name(struct text *t, const char *name)
{
	const char *base = strrchr(name, '/');
	char shown[4 * NAME_MAX_SHOWN + 1];   /* a file name's control bytes escaped, for the terminal */
	size_t len;

	if (strcmp(name, "-") == 0) {
		add(t, "<stdin>");
		return;
	}
	base = base && base[1] ? base + 1 : name;
	len = strlen(base);
	if (len > NAME_MAX_SHOWN) {
		dcfg_escape_message(shown, sizeof shown, base + len - (NAME_MAX_SHOWN - 3));
		add(t, "...%s", shown);
	} else {
		dcfg_escape_message(shown, sizeof shown, base);
		add(t, "%s", shown);
	}
}

/*
 * "PROG: NAME (pass P of N): 45%, 1.2 MiB, 3.1 MiB/s, 2.4M edges/s, ETA 0:00:03".
 * Rates are averages since the file began; with no time gone yet there is
 * no rate and no ETA. Without a size there is no share and no ETA.
 */
static size_t
format(const struct dcfg_progress *pg, double now, char *buf, size_t size)
{
	struct text t = { buf, size, 0 };
	double elapsed = now - pg->start, rate = 0.0;

	buf[0] = '\0';
	add(&t, "%s: ", pg->prog);
	if (pg->name) {
		add_name(&t, pg->name);
		if (pg->passes > 1)
			add(&t, " (pass %d of %d)", pg->pass, pg->passes);
		add(&t, ": ");
	}
	if (pg->sized) {
		/* floor: 100% only when every byte is read */
		unsigned pct = pg->bytes >= pg->size ? 100 :
		    (unsigned)((double)pg->bytes * 100.0 / (double)pg->size);
		add(&t, "%u%%, ", pct);
	}
	add_bytes(&t, (double)pg->bytes);
	if (elapsed > 0.0) {
		rate = (double)pg->bytes / elapsed;
		add(&t, ", ");
		add_bytes(&t, rate);
		add(&t, "/s");
		if (pg->unit) {
			add(&t, ", ");
			add_count(&t, (double)pg->units / elapsed);
			add(&t, " %s/s", pg->unit);
		}
	}
	if (pg->sized && rate > 0.0) {
		double left = pg->bytes >= pg->size ? 0.0 : (double)(pg->size - pg->bytes) / rate;
		uint64_t s = (uint64_t)(left + 0.5);
		add(&t, ", ETA %llu:%02u:%02u", (unsigned long long)(s / 3600),
		    (unsigned)(s / 60 % 60), (unsigned)(s % 60));
	}
	return t.len;
}

static void
draw(struct dcfg_progress *pg, double now)
{
	char line[512];
	size_t n = format(pg, now, line, sizeof line);

	if (pg->width > 1 && n > (size_t)pg->width - 1)
		n = (size_t)pg->width - 1;
	fprintf(pg->to, "\r%.*s\033[K", (int)n, line);
	fflush(pg->to);
	pg->shown = 1;
}

static void
clear(struct dcfg_progress *pg)
{
	if (!pg->shown)
		return;
	fputs("\r\033[K", pg->to);
	fflush(pg->to);
	pg->shown = 0;
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
