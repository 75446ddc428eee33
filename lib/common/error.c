#include <dcfg/error.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void
set_file(struct dcfg_error *err, const char *file)
{
	if (file == NULL || strcmp(file, "-") == 0)
		file = "<stdin>";
	snprintf(err->file, sizeof err->file, "%s", file);
}

int
dcfg_error_set(struct dcfg_error *err, const char *file, const char *fmt, ...)
{
	va_list ap;

	set_file(err, file);
	err->line = err->column = 0;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	va_end(ap);
	return -1;
}

int
dcfg_error_at(struct dcfg_error *err, const char *file, unsigned long line,
    unsigned long column, const char *fmt, ...)
{
	va_list ap;

	set_file(err, file);
	err->line = line;
	err->column = column;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	va_end(ap);
	return -1;
}

void
dcfg_error_format(const struct dcfg_error *err, char *buf, size_t size)
{
	if (err->line > 0)
		snprintf(buf, size, "%s:%lu:%lu: %s", err->file, err->line,
		    err->column, err->message);
	else
		snprintf(buf, size, "%s: %s", err->file, err->message);
}
