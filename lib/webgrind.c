/* Not written yet: issue 8. */
#include "convert.h"

int
dcfg_convert_webgrind(const struct dcfg_convert *c, struct dcfg_error *err)
{
	return dcfg_error_set(err, c->o->dcfg_path, "--to webgrind is not written yet");
}
