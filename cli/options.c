/* Option matching for the command layer (no getopt: `--with-audio [FILE]` needs an optional
 * value that may stand in the next argument). */
#include "cli/options.h"

#include <string.h>

int vms_opt_value(int argc, char **argv, int *i, const char *shortopt, const char *longopt,
                  const char **val)
{
	const char *arg = argv[*i];
	size_t l = strlen(longopt);

	if (!strncmp(arg, longopt, l) && (arg[l] == '=' || !arg[l])) {
		if (arg[l] == '=') {
			*val = arg + l + 1;
			return 1;
		}
	} else if (shortopt && !strncmp(arg, shortopt, 2)) {
		if (arg[2]) {
			*val = arg + 2;
			return 1;
		}
	} else {
		return 0;
	}
	if (*i + 1 >= argc)
		return -1;
	*val = argv[++*i];
	return 1;
}

int vms_opt_flag(const char *arg, const char *shortopt, const char *longopt)
{
	return (shortopt && !strcmp(arg, shortopt)) || !strcmp(arg, longopt);
}
