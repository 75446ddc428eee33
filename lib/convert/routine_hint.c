#include "routine_hint.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/suggest.h"

void
dcfg_routine_hint(const struct dcfg_profile *pf, const char *arg, char *buf, size_t size)
{
	static const char listing[] = " (all of them: " DCFG_ROUTINE_LISTING ")";
	struct dcfg_suggest s;
	size_t i, len;

	if (size < sizeof listing) {
		if (size > 0)
			buf[0] = '\0';
		return;
	}
	dcfg_suggest_init(&s, arg);
	/* Out of memory only costs suggestions: the error itself still stands. */
	for (i = 0; i < pf->n_funcs; i++) {
		const char *name = dcfg_profile_name(pf, &pf->funcs[i]);
		const char *at = strrchr(name, '@');
		/* NAME@IMAGE (names.h) is as close as NAME: the qualified name is what --routine takes. */
		if (dcfg_suggest_add(&s, name, at && at > name ? (size_t)(at - name) : SIZE_MAX) < 0)
			break;
	}
	dcfg_suggest_format(&s, buf, size - (sizeof listing - 1));
	dcfg_suggest_free(&s);
	for (len = 0; buf[len]; len++)
		;
	snprintf(buf + len, size - len, "%s", listing);
}
