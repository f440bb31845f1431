/* Small option matching shared by the commands: -x VALUE, -xVALUE, --long VALUE, --long=VALUE. */
#ifndef VMS_OPTIONS_H
#define VMS_OPTIONS_H

/* If argv[*i] is the option (short may be NULL), stores its value in *val (from "=VALUE", an
 * attached short value, or the next argument, advancing *i) and returns 1; returns -1 when the
 * option matched but its value is missing; 0 when argv[*i] is another option. */
int vms_opt_value(int argc, char **argv, int *i, const char *shortopt, const char *longopt,
                  const char **val);
/* 1 when arg is exactly the flag (short may be NULL). */
int vms_opt_flag(const char *arg, const char *shortopt, const char *longopt);

#endif
